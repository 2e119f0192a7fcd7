// secretlint's recommended preset, run on a text and turned into spans. secretlint is loaded
// lazily: its preset imports `node:path` (and, for `.p12` files only, `node:fs`), so on a
// platform without them the import fails and the guard carries on with its own rules.
import type { lintSource as LintSource } from '@secretlint/core';
import { SPAN_PRIORITY, type SecretSpan } from './secret-guard.js';

type LintOptions = Parameters<typeof LintSource>[0];
type LintMessage = Awaited<ReturnType<typeof LintSource>>['messages'][number];

interface Secretlint {
  readonly lintSource: typeof LintSource;
  readonly config: LintOptions['options']['config'];
}

const RULE_PREFIX = '@secretlint/secretlint-rule-';

// Marker kinds by secretlint message id; `null` drops a message that is not a secret.
const KIND_BY_MESSAGE: Readonly<Record<string, string | null>> = {
  AWSAccessKeyID: 'aws-access-key',
  AWSSecretAccessKey: 'aws-secret-key',
  AWSAccountID: null,
  PrivateKeyP12: null,
  // Reported for the whole text of a service-account JSON; the PEM key inside it is found by
  // the private-key rule (same `BEGIN … PRIVATE KEY` pattern), so the rest of the text is kept.
  PrivateKeyJSON: null,
  PrivateKey: 'private-key',
  GITHUB_TOKEN: 'github-token',
  SLACK_TOKEN: 'slack-token',
  IncomingWebhook: 'slack-webhook',
  NPM_ACCESS_TOKEN: 'npm-token',
  Npmrc_authToken: 'npm-token',
  PackageJSON_xOauthToken: 'npm-token',
  OPENAI_TOKEN: 'openai-key',
  ANTHROPIC_API_KEY: 'anthropic-key',
  LINEAR_API_TOKEN: 'linear-key',
  SENDGRID_KEY: 'sendgrid-key',
  SHOPIFY_KEY: 'shopify-token',
  OPS_TOKEN: 'onepassword-token',
  BasicAuth: 'basic-auth',
  MongoDBConnection: 'connection-string',
  MySQLConnection: 'connection-string',
  PostgreSQLConnection: 'connection-string',
};

let loading: Promise<Secretlint> | undefined;

/** Loads secretlint once; a failed load is retried on the next call. */
export function loadSecretlint(): Promise<Secretlint> {
  loading ??= (async () => {
    const [core, preset, profiler] = await Promise.all([
      import('@secretlint/core'),
      import('@secretlint/secretlint-rule-preset-recommend'),
      import('@secretlint/profiler'),
    ]);
    silenceProfiler(profiler.secretLintProfiler);
    // The preset's rules registered one by one: secretlint ignores `disabled` on rules nested in
    // a preset, and `filter-comments` must not run (a `secretlint-disable` comment in chat text
    // would switch the guard off).
    const config: LintOptions['options']['config'] = {
      rules: preset.rules
        .filter((rule) => rule.meta.id !== `${RULE_PREFIX}filter-comments`)
        .map((rule) => ({
          id: rule.meta.id,
          rule,
          // Also report access key ids, not only secret keys.
          options: rule.meta.id === `${RULE_PREFIX}aws` ? { enableIDScanRule: true } : {},
        })),
    };
    return { lintSource: core.lintSource, config };
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * secretlint's shared profiler puts a global performance mark per rule per scan and keeps every
 * one in an array it searches on each new mark: a long-lived process (an extension host scanning
 * every chat turn) slows down and grows without bound. Memory never reads the profile, so marking
 * becomes a no-op.
 */
export function silenceProfiler(profiler: { mark: (...marker: never[]) => void }): void {
  profiler.mark = () => undefined;
}

/** Runs the recommended preset on `text`. Rejects when secretlint cannot load or run. */
export async function scanWithSecretlint(text: string): Promise<SecretSpan[]> {
  const secretlint = await loadSecretlint();
  const result = await secretlint.lintSource({
    // No file path on purpose: the text is not a file, and no rule may read one from disk. The
    // type asks for a path, the implementation accepts an extension instead.
    source: { content: text, ext: '.txt', contentType: 'text' } as LintOptions['source'],
    options: { config: secretlint.config, noPhysicFilePath: true, maskSecrets: false },
  });
  return result.messages.flatMap((message) => spansOfMessage(text, message));
}

/**
 * The spans of one secretlint message. A message's `range` is not always the secret itself (the
 * AWS secret-key rule reports the key name and part of the value), so when the reported value is
 * in the message data and not inside the range, every occurrence of the value is used instead.
 */
export function spansOfMessage(text: string, message: LintMessage): SecretSpan[] {
  const mapped = KIND_BY_MESSAGE[message.messageId];
  if (mapped === null) return [];
  const kind = mapped ?? kindFromRuleId(message.ruleId);
  const [start, end] = message.range;
  const span = (from: number, to: number): SecretSpan => ({ start: from, end: to, kind, priority: SPAN_PRIORITY.provider });
  const rangeText = text.slice(start, end);
  const values = Object.entries(message.data ?? {})
    .filter(([name, value]) => typeof value === 'string' && value.length >= 8 && name !== 'typeName' && name !== 'FILE_NAME')
    .map(([, value]) => value as string);
  if (values.length === 0 || values.some((value) => rangeText.includes(value))) return [span(start, end)];
  const spans: SecretSpan[] = [];
  for (const value of values) {
    for (let index = text.indexOf(value); index !== -1; index = text.indexOf(value, index + value.length)) {
      spans.push(span(index, index + value.length));
    }
  }
  return spans.length > 0 ? spans : [span(start, end)];
}

function kindFromRuleId(ruleId: string): string {
  const name = ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId;
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'secret';
}
