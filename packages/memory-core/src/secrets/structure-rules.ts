// Secrets recognisable by their surroundings rather than a provider prefix: PEM private keys,
// URLs with credentials, Authorization headers, JWTs, and credentials on a command line.
import { SPAN_PRIORITY, type SecretSpan } from './secret-guard.js';

const PRIVATE_KEY_BEGIN = /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/g;
const PRIVATE_KEY_END = /-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/g;
// What may follow an unterminated key on its own lines: base64 and PEM headers (`Proc-Type: …`).
const KEY_BODY_LINE = /^[ \t]*(?:[A-Za-z0-9+/=]*|[A-Za-z-]+: .*)[ \t]*\r?$/;

/** PEM (RSA, EC, DSA, PKCS#8, OpenSSH, PGP) private keys, also inside JSON strings with `\n` escapes. */
export function findPrivateKeys(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  // The next END marker, remembered across BEGIN markers so the text is searched once
  // (`null`: there is none after the last search position).
  let nextEnd: { index: number; end: number } | null | undefined;
  let searchFrom = 0;
  for (;;) {
    PRIVATE_KEY_BEGIN.lastIndex = searchFrom;
    const begin = PRIVATE_KEY_BEGIN.exec(text);
    if (!begin) break;
    const bodyStart = begin.index + begin[0].length;
    if (nextEnd === undefined || (nextEnd !== null && nextEnd.index < bodyStart)) {
      PRIVATE_KEY_END.lastIndex = bodyStart;
      const found = PRIVATE_KEY_END.exec(text);
      nextEnd = found ? { index: found.index, end: found.index + found[0].length } : null;
    }
    const nextBegin = text.indexOf('-----BEGIN', bodyStart);
    const stop =
      nextEnd !== null && (nextBegin === -1 || nextEnd.index < nextBegin)
        ? nextEnd.end
        : // Unterminated (a truncated paste): take the key body that follows, so no part of it leaks.
          unterminatedKeyEnd(text, bodyStart);
    spans.push({ start: begin.index, end: stop, kind: 'private-key', priority: SPAN_PRIORITY.structure });
    searchFrom = Math.max(stop, begin.index + 1);
  }
  return spans;
}

const ESCAPED_KEY_BODY = /(?:\\[nr]|[A-Za-z0-9+/=])*/y;

function unterminatedKeyEnd(text: string, from: number): number {
  // Escaped form inside one line (JSON): a run of base64 characters and `\n` escapes.
  ESCAPED_KEY_BODY.lastIndex = from;
  let stop = from + (ESCAPED_KEY_BODY.exec(text)?.[0].length ?? 0);
  if (stop > from) return stop;
  // Raw form: following lines that look like key material.
  let lineStart = text.indexOf('\n', from);
  while (lineStart !== -1) {
    const lineEnd = text.indexOf('\n', lineStart + 1);
    const line = text.slice(lineStart + 1, lineEnd === -1 ? text.length : lineEnd);
    if (line.trim() === '' || !KEY_BODY_LINE.test(line)) break;
    stop = lineEnd === -1 ? text.length : lineEnd;
    lineStart = lineEnd;
  }
  return stop;
}

const DATABASE_SCHEMES = new Set([
  'postgres', 'postgresql', 'mysql', 'mysqlx', 'mariadb', 'mongodb', 'mongodb+srv', 'redis', 'rediss',
  'amqp', 'amqps', 'mssql', 'sqlserver', 'clickhouse', 'cockroachdb', 'neo4j', 'neo4j+s', 'bolt',
  'couchdb', 'cassandra', 'oracle', 'db2', 'snowflake', 'memcached', 'nats', 'kafka', 'elasticsearch',
]);

// scheme://user:password@host… — the user may be empty (`redis://:pw@host`).
const URL_WITH_CREDENTIALS =
  /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{1,30}):\/\/([^\s:@/'"`<>]*):([^\s@/'"`<>]+)@([^\s'"`<>]*)/g;

/** URLs carrying a password: database connection strings and basic auth (`https://u:p@host`). */
export function findCredentialUrls(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const match of text.matchAll(URL_WITH_CREDENTIALS)) {
    const [whole, scheme = ''] = match;
    const trimmed = whole.replace(/[.,;:!?)\]}]+$/, '');
    const kind = DATABASE_SCHEMES.has(scheme.toLowerCase()) ? 'connection-string' : 'basic-auth';
    spans.push({ start: match.index, end: match.index + trimmed.length, kind, priority: SPAN_PRIORITY.structure });
  }
  return spans;
}

const TOKEN_CHARACTERS = '[A-Za-z0-9._~+/-]';
const BEARER = new RegExp(`\\b[Bb]earer[ \\t]+(${TOKEN_CHARACTERS}{16,}=*)`, 'g');
const AUTHORIZATION_SCHEME = new RegExp(
  `\\bAuthorization["']?[ \\t]*[:=][ \\t]*["']?(Basic|Token|token|Digest|Negotiate|NTLM)[ \\t]+(${TOKEN_CHARACTERS}{8,}=*)`,
  'g',
);
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;

/** `Bearer …` tokens, `Authorization: Basic|Token …` credentials and JSON Web Tokens. */
export function findAuthorizationTokens(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const match of text.matchAll(BEARER)) {
    const value = match[1] ?? '';
    // `Bearer YOUR_ACCESS_TOKEN_HERE` and similar constants are documentation, not tokens.
    if (isDocumentationWord(value)) continue;
    const start = match.index + match[0].length - value.length;
    spans.push({ start, end: start + value.length, kind: 'bearer-token', priority: SPAN_PRIORITY.structure });
  }
  for (const match of text.matchAll(AUTHORIZATION_SCHEME)) {
    const value = match[2] ?? '';
    if (isDocumentationWord(value)) continue;
    const start = match.index + match[0].length - value.length;
    const kind = match[1] === 'Basic' ? 'basic-auth' : 'bearer-token';
    spans.push({ start, end: start + value.length, kind, priority: SPAN_PRIORITY.structure });
  }
  for (const match of text.matchAll(JWT)) {
    spans.push({ start: match.index, end: match.index + match[0].length, kind: 'jwt', priority: SPAN_PRIORITY.structure });
  }
  return spans;
}

/** `YOUR_ACCESS_TOKEN`, `your_token_here`, `authentication/authorization`: words, not tokens. */
function isDocumentationWord(value: string): boolean {
  return /^[A-Z_]+$/.test(value) || /^[a-z_./-]+$/.test(value);
}

const SECRET_FLAG =
  /(?<![A-Za-z0-9_-])--?(?:password|passwd|pass|token|api-key|apikey|secret|client-secret|access-token|auth-token|private-key|secret-key|access-key)[ \t]+(?!-)([^\s"'`]+|"[^"\n]{0,4096}"|'[^'\n]{0,4096}')/gi;
const CURL_USER = /(?<![A-Za-z0-9_-])(?:-u|--user)[ \t]+["']?[^\s:"']+:([^\s"']+)/g;

/** Credentials passed as command-line arguments: `--password hunter2`, `curl -u user:pass`. */
export function findCommandLineSecrets(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const match of text.matchAll(SECRET_FLAG)) {
    const raw = match[1] ?? '';
    const value = /^["']/.test(raw) ? raw.slice(1, -1) : raw;
    if (value === '' || isPlaceholder(value)) continue;
    const start = match.index + match[0].length - raw.length + (raw === value ? 0 : 1);
    const kind = /pass/i.test(match[0]) ? 'password' : 'secret';
    spans.push({ start, end: start + value.length, kind, priority: SPAN_PRIORITY.structure });
  }
  for (const match of text.matchAll(CURL_USER)) {
    const value = match[1] ?? '';
    if (isPlaceholder(value)) continue;
    const start = match.index + match[0].length - value.length;
    spans.push({ start, end: start + value.length, kind: 'basic-auth', priority: SPAN_PRIORITY.structure });
  }
  return spans;
}

/**
 * Values that stand for a secret without being one: `$TOKEN`, `${TOKEN}`, `{{ secrets.X }}`,
 * `<password>`, `***`, elided examples (`sk-...`), and markers this guard already wrote.
 */
export function isPlaceholder(value: string): boolean {
  // The ellipsis as \u2026: the hook's bundles stay ASCII (see stale-paths.ts's EDGES).
  return /^(?:[^\s.\u2026]{0,12}(?:\.{3}|\u2026)|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\{\{.*\}\}|\{\{.*\}\}|<[^>]*>|\*+|x{3,}|X{3,}|\.{3}|\u2026|%[A-Za-z_][A-Za-z0-9_]*%|\[REDACTED:[a-z0-9-]+\]?|\$\(.*)$/.test(
    value,
  );
}
