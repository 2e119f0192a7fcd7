// Tokens recognisable by their own shape: a provider prefix and a body of a known alphabet and
// length. These complement secretlint's recommended preset (which covers fewer providers) and
// keep the guard working when secretlint cannot run.
import { SPAN_PRIORITY, type SecretSpan } from './secret-guard.js';

interface TokenRule {
  readonly kind: string;
  readonly pattern: RegExp;
  /** Extra check on the whole match, for prefixes that ordinary identifiers could share. */
  readonly accept?: (match: string) => boolean;
}

// Not preceded / followed by a token character, so a match is a whole token.
const START = '(?<![A-Za-z0-9_])';
const END = '(?![A-Za-z0-9_])';

function token(kind: string, body: string, accept?: (match: string) => boolean): TokenRule {
  const pattern = new RegExp(`${START}(?:${body})${END}`, 'g');
  return accept === undefined ? { kind, pattern } : { kind, pattern, accept };
}

const hasDigit = (value: string): boolean => /\d/.test(value);
/** Digits and both cases: random tokens have them, hyphenated words and identifiers rarely do. */
const looksRandom = (value: string): boolean => /\d/.test(value) && /[A-Z]/.test(value) && /[a-z]/.test(value);
const hasBothCases = (value: string): boolean => /[A-Z]/.test(value) && /[a-z]/.test(value);

export const PROVIDER_TOKEN_RULES: readonly TokenRule[] = [
  token('aws-access-key', '(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}'),
  token('github-token', 'gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{50,255}'),
  token('gitlab-token', 'gl(?:pat|dt|rt|ptt|cbt|oas|soat|ffct|imt|agent|ft|ct)-[A-Za-z0-9_-]{20,}|GR1348941[A-Za-z0-9_-]{20,}'),
  token('slack-token', 'xox[abposre]-[A-Za-z0-9-]{10,}|xapp-\\d-[A-Z0-9]+-\\d+-[a-z0-9]+'),
  token('slack-webhook', 'https://hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/+-]{20,}'),
  token('stripe-key', '(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}'),
  token('anthropic-key', 'sk-ant-[a-z]+\\d*-[A-Za-z0-9_-]{20,}'),
  token('openai-key', 'sk-(?!ant-)(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{32,}', looksRandom),
  token('google-api-key', 'AIza[0-9A-Za-z_-]{35}'),
  token('google-oauth', 'GOCSPX-[A-Za-z0-9_-]{28}|ya29\\.[A-Za-z0-9_-]{20,}|1//0[A-Za-z0-9_-]{40,}'),
  token('npm-token', 'npm_[A-Za-z0-9]{36}'),
  token('pypi-token', 'pypi-[A-Za-z0-9_-]{50,}'),
  token('twilio-key', '(?:SK|AC)[0-9a-fA-F]{32}'),
  token('sendgrid-key', 'SG\\.[A-Za-z0-9_-]{20,24}\\.[A-Za-z0-9_-]{39,50}'),
  token('mailgun-key', 'key-[0-9a-f]{32}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}'),
  token('discord-token', '[MNO][A-Za-z0-9_-]{23,27}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,40}', hasDigit),
  token('discord-webhook', 'https://(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/webhooks/\\d+/[A-Za-z0-9_-]{60,}'),
  token('telegram-bot-token', '\\d{8,10}:AA[A-Za-z0-9_-]{33}'),
  token('shopify-token', 'shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}'),
  token('heroku-key', 'HRKU-[A-Za-z0-9_-]{30,}'),
  token('digitalocean-token', 'do[opr]_v1_[a-f0-9]{64}'),
  token('huggingface-token', '(?:hf|api_org)_[A-Za-z]{34,}', hasBothCases),
  token('databricks-token', 'dapi[a-f0-9]{32}(?:-\\d)?'),
  token('linear-key', 'lin_(?:api|oauth)_[A-Za-z0-9]{40}'),
  token('onepassword-token', 'ops_eyJ[A-Za-z0-9+/=_-]{100,}'),
  token('age-secret-key', 'AGE-SECRET-KEY-1[0-9A-Z]{58}'),
  token('square-token', 'sq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}|EAAA[A-Za-z0-9_-]{60}'),
  token('newrelic-key', 'NR(?:AK|AA|II)-[A-Z0-9]{27}'),
  token('sentry-token', 'sntry[su]_[A-Za-z0-9+/=_]{40,}'),
  token('doppler-token', 'dp\\.(?:st|ct|sa|scim|audit|pt)\\.[A-Za-z0-9_.-]{40,}'),
  token('pulumi-token', 'pul-[a-f0-9]{40}'),
  token('grafana-token', 'glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}'),
  token('vault-token', 'hv[sbr]\\.[A-Za-z0-9_-]{24,}'),
  token('terraform-token', '[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,}'),
  token('postman-key', 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}'),
  token('supabase-token', 'sbp_[a-f0-9]{40}'),
  token('figma-token', 'figd_[A-Za-z0-9_-]{40,}'),
  token('notion-token', 'secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,}', hasDigit),
  token('atlassian-token', 'ATATT3[A-Za-z0-9_=-]{100,}|ATBB[A-Za-z0-9_=.-]{28,}'),
  token('flyio-token', 'fo1_[A-Za-z0-9_-]{39,}|fm[12][ar]?_[A-Za-z0-9+/=_-]{100,}'),
  token('dropbox-token', 'sl\\.[A-Za-z0-9_-]{130,}'),
  token('mapbox-token', 'sk\\.eyJ[A-Za-z0-9_-]{50,}\\.[A-Za-z0-9_-]{20,}'),
  token('planetscale-token', 'pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}'),
  token('alibaba-key', 'LTAI[A-Za-z0-9]{12,20}', hasDigit),
  token('azure-client-secret', '[A-Za-z0-9_~.-]{3}\\dQ~[A-Za-z0-9_~.-]{31,34}'),
  token('docker-token', 'dckr_pat_[A-Za-z0-9_-]{27,}'),
  token('buildkite-token', 'bkua_[a-f0-9]{40}'),
  token('netlify-token', 'nfp_[A-Za-z0-9]{36,}'),
  token('render-key', 'rnd_[A-Za-z0-9]{32,}', hasDigit),
  token('replicate-token', 'r8_[A-Za-z0-9]{37,}'),
  token('groq-key', 'gsk_[A-Za-z0-9]{48,}'),
  token('perplexity-key', 'pplx-[A-Za-z0-9]{48,}'),
  token('xai-key', 'xai-[A-Za-z0-9]{70,}'),
  token('langsmith-key', 'lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}'),
  token('pinecone-key', 'pcsk_[A-Za-z0-9_]{50,}'),
  token('contentful-token', 'CFPAT-[A-Za-z0-9_-]{43}'),
  token('sourcegraph-token', 'sgp_(?:[A-Za-z0-9]{16}_)?[a-f0-9]{40}'),
  token('tailscale-key', 'tskey-(?:auth|api|client|webhook|scim)-[A-Za-z0-9]+-[A-Za-z0-9]+'),
];

/** Spans of every provider token in `text`. */
export function findProviderTokens(text: string): SecretSpan[] {
  const spans: SecretSpan[] = [];
  for (const rule of PROVIDER_TOKEN_RULES) {
    rule.pattern.lastIndex = 0;
    for (const match of text.matchAll(rule.pattern)) {
      if (rule.accept !== undefined && !rule.accept(match[0])) continue;
      spans.push({ start: match.index, end: match.index + match[0].length, kind: rule.kind, priority: SPAN_PRIORITY.provider });
    }
  }
  return spans;
}
