// Secrets assigned to a secret-sounding name: `.env` lines, YAML/TOML/JSON keys, code literals,
// query parameters (`DB_PASSWORD=…`, `"apiKey": "…"`, `password: …`, `?token=…`). Only the value
// is replaced, so the memory keeps which setting was involved. The false positives to avoid are
// code that names a secret without holding one (`password: string`, `token = getToken()`,
// `apiKey: config.apiKey`) and prose (`Password: use a long one`).
import { isPlaceholder } from './structure-rules.js';
import { SPAN_PRIORITY, type SecretSpan } from './secret-guard.js';

// A key, optionally quoted, and an assignment operator not followed by another operator
// character (so `==`, `::` and `=>`-arrows of comparisons are not assignments).
const ASSIGNMENT = /(?<![A-Za-z0-9_$])(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,80})\1[ \t]*(:=|=>|=|:)(?![=:>])/g;

/** Longest value taken, and how much of the line around a match is looked at. */
const MAX_VALUE_LENGTH = 4096;
const CONTEXT_LENGTH = 512;

// An unquoted value ends at whitespace, a quote, a separator or a closing bracket.
const BARE_VALUE = new RegExp(`[^\\s"'\`,;&<>)\\]}]{1,${MAX_VALUE_LENGTH}}`, 'y');

const PASSWORD_WORDS = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase', 'passcode']);
const SECRET_WORDS = new Set(['secret', 'token', 'apikey', 'credential', 'credentials', 'pat', 'secretkey', 'privatekey', 'accesskey']);
// `<word> key` pairs that name a secret (`api key`, `private key`, …); `key` alone is too common.
const KEY_QUALIFIERS = new Set([
  'api', 'access', 'secret', 'private', 'auth', 'account', 'master', 'signing', 'encryption', 'client',
  'license', 'app', 'subscription', 'storage', 'shared', 'service', 'admin', 'webhook', 'consumer', 'hmac',
]);
// Tokens of language models and pagination, not credentials (`eos_token`, `next_token`, …).
const HARMLESS_TOKEN_QUALIFIERS = new Set([
  'cancellation', 'page', 'next', 'continuation', 'sync', 'max', 'min', 'input', 'output', 'prompt',
  'completion', 'total', 'eos', 'bos', 'pad', 'unk', 'special', 'mask', 'sep', 'cls', 'start', 'end', 'stop',
]);
const NON_VALUES = new Set([
  'null', 'nil', 'none', 'undefined', 'true', 'false', 'string', 'number', 'boolean', 'bool', 'any', 'unknown',
  'never', 'void', 'object', 'bigint', 'symbol', 'str', 'int', 'bytes', 'float', 'required', 'optional', 'env',
  'default', 'secret', 'readonly', 'new', 'await', 'this', 'self', 'function', 'async', 'typeof', 'keyof',
]);
const SECRET_WORD_IN_VALUE = /(?:^|[^a-z])(?:password|passwd|passphrase|secret|token|api[ _-]?key|credentials?)(?:$|[^a-z])/i;
const SECRET_WORD_EXACT = /^(?:password|passwd|passphrase|secret|token|api[ _-]?key|credentials?)$/i;
const CODE_LINE =
  /(?:[;,{(]\s*$)|^\s*(?:const|let|var|export|import|function|class|interface|type|return|def|if|elif|else|for|while|public|private|protected|readonly|static|async|await|val|fn|func)\b|=>|===|!==|\bthis\.|\bself\./;

/** Spans of values assigned to secret-sounding names. */
export function findSecretAssignments(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  // Assignments inside a value already taken (`a=b=c…`) are covered by it; skipping them keeps
  // the scan linear.
  let coveredUntil = 0;
  for (const match of text.matchAll(ASSIGNMENT)) {
    if (match.index < coveredUntil) continue;
    const key = match[2] ?? '';
    const operator = match[3] ?? '';
    const kind = secretKindOfKey(key);
    if (kind === undefined) continue;
    const valueStart = skipBlanks(text, match.index + match[0].length);
    const value = readValue(text, valueStart);
    if (value === undefined) continue;
    // The line around the match, bounded so a huge single line does not make every match O(line).
    const lineStart = lineStartBefore(text, match.index);
    const spacedOperator = text[match.index + match[0].length - operator.length - 1] === ' ';
    if (!isSecretValue(value, { text, key, operator, lineStart, spacedOperator })) continue;
    spans.push({ start: value.start, end: value.end, kind, priority: SPAN_PRIORITY.assignment });
    coveredUntil = value.end;
  }
  return spans;
}

/** The marker kind for a secret-sounding key, or `undefined` for an ordinary key. */
export function secretKindOfKey(key: string): string | undefined {
  if (key === '_auth') return 'secret';
  const words = splitWords(key);
  const last = words[words.length - 1];
  const previous = words[words.length - 2];
  if (last === undefined) return undefined;
  // Run-together names (`PGPASSWORD`, `clientsecret`) end with the word.
  if (PASSWORD_WORDS.has(last) || /(?:password|passwd)$/.test(last)) return 'password';
  const isSecret =
    /(?:secret|apikey|accesstoken|authtoken)$/.test(last) ||
    (SECRET_WORDS.has(last) && !(last === 'token' && previous !== undefined && HARMLESS_TOKEN_QUALIFIERS.has(previous))) ||
    (last === 'key' && previous !== undefined && KEY_QUALIFIERS.has(previous));
  if (!isSecret) return undefined;
  return words.includes('aws') && words.includes('secret') ? 'aws-secret-key' : 'secret';
}

function splitWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

interface Value {
  readonly start: number;
  readonly end: number;
  readonly quoted: boolean;
}

function skipBlanks(text: string, from: number): number {
  let index = from;
  while (text[index] === ' ' || text[index] === '\t') index += 1;
  return index;
}

function readValue(text: string, start: number): Value | undefined {
  const first = text[start];
  if (first === undefined || first === '\n' || first === '\r') return undefined;
  if (first === '"' || first === "'" || first === '`') {
    const limit = Math.min(text.length, start + 1 + MAX_VALUE_LENGTH);
    for (let index = start + 1; index < limit; index += 1) {
      const character = text[index];
      if (character === '\\') {
        index += 1;
      } else if (character === first) {
        return { start: start + 1, end: index, quoted: true };
      } else if (character === '\n') {
        break;
      }
    }
    // Unterminated: treat the rest of the line as the value (fail closed).
    return { start: start + 1, end: lineEnd(text, start, MAX_VALUE_LENGTH), quoted: false };
  }
  BARE_VALUE.lastIndex = start;
  const bare = BARE_VALUE.exec(text);
  return bare ? { start, end: start + bare[0].length, quoted: false } : undefined;
}

/** Start of the line that holds `at`, looking at most `CONTEXT_LENGTH` characters back. */
function lineStartBefore(text: string, at: number): number {
  const stop = Math.max(0, at - CONTEXT_LENGTH);
  let start = at;
  while (start > stop && text[start - 1] !== '\n') start -= 1;
  return start;
}

/** End of the line that holds `from`, looking at most `limit` characters ahead. */
function lineEnd(text: string, from: number, limit = CONTEXT_LENGTH): number {
  const stop = Math.min(text.length, from + limit);
  let end = from;
  while (end < stop && text[end] !== '\n') end += 1;
  return text[end - 1] === '\r' && end > from ? end - 1 : end;
}

interface ValueContext {
  readonly text: string;
  readonly key: string;
  readonly operator: string;
  readonly lineStart: number;
  readonly spacedOperator: boolean;
}

function isSecretValue(value: Value, context: ValueContext): boolean {
  const raw = context.text.slice(value.start, value.end);
  if (raw.trim() === '' || isPlaceholder(raw.trim())) return false;
  if (value.quoted) {
    // Labels and messages name the secret (`'Password'`, `"Enter your API key"`); a template
    // literal with interpolation is computed, not a literal secret.
    // Placeholder names in examples (`'YOUR_API_KEY'`, `'your-token-here'`) are letters only.
    if (SECRET_WORD_IN_VALUE.test(raw) && (/\s/.test(raw) || SECRET_WORD_EXACT.test(raw) || /^[A-Za-z_-]+$/.test(raw))) return false;
    return !raw.includes('${');
  }
  if (raw.length <= 2) return false;
  if (NON_VALUES.has(raw.toLowerCase())) return false;
  if (/^[{[(<!&|*?@\\$]/.test(raw) || raw.includes('(')) return false;
  // An identifier that names a secret is a reference to one (`password: userPassword`).
  if (/^[A-Za-z_$][A-Za-z_$]*$/.test(raw) && secretKindOfKey(raw) !== undefined) return false;
  // Member access or indexing: `process.env.TOKEN`, `config.apiKey`, `os.environ[…]`.
  if (/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/.test(raw) || /^[A-Za-z_$][\w$.]*\[/.test(raw)) return false;
  const line = context.text.slice(context.lineStart, lineEnd(context.text, context.lineStart));
  const isEnvironmentLine = /^\s*(?:export\s+)?[A-Z][A-Z0-9_]*=/.test(line) && !context.spacedOperator;
  if (!isEnvironmentLine) {
    // Prose: more words follow the value on its line (`Password: use a long one`).
    const after = context.text.slice(value.end, lineEnd(context.text, value.end)).trim();
    const isWord = /^[A-Za-z]+$/.test(raw);
    if (isWord && (context.operator === ':' || context.spacedOperator) && after !== '' && !/^(?:#|\/\/|\/\*|--|[,;})\]])/.test(after)) {
      return false;
    }
    if (/^[A-Za-z_$][\w$]*$/.test(raw)) {
      // Type names and constant references (`Token`, `DEFAULT_PASSWORD`).
      if (/^[A-Z][a-z]+(?:[A-Z][a-z]*)*$/.test(raw) || /^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(raw)) return false;
      // Variables in code: camelCase or plain lowercase words on a line that looks like code.
      if (CODE_LINE.test(line) && (/[a-z][A-Z]/.test(raw) || /^[a-z_$]+$/.test(raw))) return false;
    }
  }
  return true;
}

// A password stated in words: `the staging password is hunter2-x7`, `password for prod: …`,
// `pwd is …`. The value must look like a password (a digit, a symbol or mixed case, or quoted),
// so prose (`the password is wrong`, `password is required`) is left alone.
const PASSWORD_IN_WORDS =
  /(?<![A-Za-z0-9_])(?:password|passwd|passphrase|passcode|pwd)(?:\s+(?:for|of|on|to)\s+(?:the\s+)?[\w.@-]{1,40})?\s*(?:\s(?:is|was|will\s+be|is\s+now|=)\s|:\s*|\s-\s)(?:(?:set\s+to|now|still|just)\s+)?/gi;
const QUOTES = new Set(['"', "'", '`', '“', '‘']);
const CLOSING_QUOTE: Readonly<Record<string, string>> = { '“': '”', '‘': '’' };

/** Spans of passwords stated in plain words; kind `password`. */
export function findPasswordsInWords(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const match of text.matchAll(PASSWORD_IN_WORDS)) {
    const start = match.index + match[0].length;
    const opening = text[start] ?? '';
    if (QUOTES.has(opening)) {
      const closing = CLOSING_QUOTE[opening] ?? opening;
      const end = text.indexOf(closing, start + 1);
      const value = end < 0 ? '' : text.slice(start + 1, end);
      if (value.length <= 200 && !/\s/.test(value) && looksLikePassword(value)) {
        spans.push({ start: start + 1, end, kind: 'password', priority: SPAN_PRIORITY.assignment });
      }
      continue;
    }
    const bare = /^[^\s"'`,;<>()[\]{}]{4,200}/.exec(text.slice(start, start + 201));
    if (bare === null) continue;
    // A sentence's full stop or comma is not part of the password.
    const value = bare[0].replace(/[.,;:!?]+$/, '');
    if (value.length < 4 || !looksLikePassword(value)) continue;
    spans.push({ start, end: start + value.length, kind: 'password', priority: SPAN_PRIORITY.assignment });
  }
  return spans;
}

function looksLikePassword(value: string): boolean {
  if (isPlaceholder(value) || NON_VALUES.has(value.toLowerCase())) return false;
  // Code and references: `password: string`, `pwd: process.env.PWD`, `$PASSWORD`, a path.
  if (/^[$%]/.test(value) || /^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/.test(value) || /^[~/.]/.test(value)) return false;
  if (/^https?:/i.test(value)) return false;
  const hasDigit = /\d/.test(value);
  const hasSymbol = /[^A-Za-z0-9]/.test(value);
  const mixedCase = /[a-z]/.test(value) && /[A-Z]/.test(value.slice(1));
  // A number alone is a count or a length (`password is 12 characters`), unless it is long.
  if (/^\d+$/.test(value)) return value.length >= 6;
  // Words joined by hyphens read as prose (`re-entered`, `case-sensitive`) unless a digit is in them.
  if (!hasDigit && /^[A-Za-z]+(?:-[A-Za-z]+)*$/.test(value) && !mixedCase) return false;
  return hasDigit || hasSymbol || mixedCase;
}
