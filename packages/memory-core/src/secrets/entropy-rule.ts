// The last line of defence: long random-looking tokens with no known prefix or label.
//
// A candidate is a run of at least 32 base64/base64url characters. It counts as a secret when it
// has high Shannon entropy for its length, mixes upper case, lower case and digits (two separate
// digit runs at least), and is not made of words. Deliberately NOT redacted, because they are
// public or structural rather than credentials:
// - hexadecimal strings (git commit ids, SHA digests, hex UUIDs): hex tops out at 4 bits per
//   character and hashes are everywhere in code and git output; hex secrets are caught only with a
//   label (`TWILIO_AUTH_TOKEN=…`) or a provider prefix;
// - integrity hashes (`sha512-…` in lockfiles and SRI, `h1:…` in go.sum), data URIs (`base64,…`),
//   SSH public keys, certificates, public keys and signatures in PEM blocks;
// - path segments of URLs without credentials (document ids, commit links); query values are
//   still checked;
// - base64 that decodes to prose (text with spaces), unless it is a PEM private key.
// Random tokens of 32 characters are caught about 95% of the time, 48+ characters over 99%.
import { SPAN_PRIORITY, type SecretSpan } from './secret-guard.js';

const CANDIDATE = /[A-Za-z0-9+/_-]{32,}={0,2}/g;
const MINIMUM_LENGTH = 32;
// Starts only at a scheme boundary with a bounded scheme, so a long run of letters stays linear.
const URL = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,30}:\/\/[^\s'"`<>]+/g;
const PUBLIC_PEM_BLOCK =
  /-----BEGIN (CERTIFICATE|TRUSTED CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|PGP PUBLIC KEY BLOCK|PGP SIGNATURE|PGP MESSAGE|PGP SIGNED MESSAGE|SSH SIGNATURE|CERTIFICATE REQUEST|NEW CERTIFICATE REQUEST|X509 CRL)-----[\s\S]*?(?:-----END \1-----|$)/g;
const PUBLIC_PREFIX =
  /(?:(?:sha1|sha224|sha256|sha384|sha512|md5)[-:]|h1:|base64,|(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d+|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)[ \t]+)$/i;

/** Spans of high-entropy tokens that no other rule explains. */
export function findHighEntropyTokens(text: string): SecretSpan[] {
  // Sorted by start: candidates come in text order, so one pass tracks the furthest end of the
  // ranges opened so far; a candidate is inside one exactly when that end reaches past it.
  const excluded = publicRanges(text).sort((left, right) => left[0] - right[0]);
  let nextRange = 0;
  let furthestEnd = -1;
  const spans: SecretSpan[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const leading = /^[-_/+=]*/.exec(match[0])?.[0].length ?? 0;
    const body = match[0].slice(leading).replace(/[-_/+=]+$/, '');
    // Integrity hashes inside the run itself (`sha512-…` is all token characters).
    if (body.length < MINIMUM_LENGTH || /^(?:sha1|sha224|sha256|sha384|sha512|md5)-/i.test(body)) continue;
    const start = match.index + leading;
    const end = start + body.length;
    while (nextRange < excluded.length && (excluded[nextRange]?.[0] ?? Infinity) <= start) {
      furthestEnd = Math.max(furthestEnd, excluded[nextRange]?.[1] ?? -1);
      nextRange += 1;
    }
    if (furthestEnd >= end) continue;
    if (PUBLIC_PREFIX.test(text.slice(Math.max(0, start - 40), start))) continue;
    const decoded = decodeBase64(text.slice(start, match.index + match[0].length));
    // Base64 of a PEM private key (kubeconfig `client-key-data`, CI variables) is a private key.
    const isEncodedKey = decoded !== undefined && /PRIVATE KEY/.test(decoded);
    if (!isEncodedKey && (!isRandomLooking(body) || (decoded !== undefined && isProse(decoded)))) continue;
    // Spans reach over the padding, so no `=` is left dangling after the marker.
    const paddingEnd = end + (/^=*/.exec(text.slice(end))?.[0].length ?? 0);
    spans.push({
      start,
      end: paddingEnd,
      kind: isEncodedKey ? 'private-key' : 'high-entropy',
      priority: isEncodedKey ? SPAN_PRIORITY.structure : SPAN_PRIORITY.entropy,
    });
  }
  return spans;
}

/** Whether a token looks randomly generated (see the file comment for the thresholds). */
export function isRandomLooking(token: string): boolean {
  const length = token.length;
  if (length < MINIMUM_LENGTH) return false;
  if (/^[0-9a-fA-F-]+$/.test(token)) return false;
  if (countMatches(token, /[0-9]+/g) < 2 || countMatches(token, /[A-Z]/g) < 2 || countMatches(token, /[a-z]/g) < 2) {
    return false;
  }
  const threshold = Math.min(4.0 + (length - MINIMUM_LENGTH) * 0.022, 4.6);
  return shannonEntropy(token) >= threshold && wordCoverage(token) <= 0.6;
}

/** Bits per character of the token's own character distribution. */
export function shannonEntropy(value: string): number {
  if (value === '') return 0;
  const counts = new Map<string, number>();
  for (const character of value) counts.set(character, (counts.get(character) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const probability = count / value.length;
    entropy -= probability * Math.log2(probability);
  }
  return entropy;
}

/** Share of the token made of word-like runs (`Word`, `word`, `WORD`): identifiers and paths score high. */
function wordCoverage(token: string): number {
  let covered = 0;
  for (const match of token.matchAll(/[A-Z]?[a-z]{3,}|[A-Z]{4,}/g)) covered += match[0].length;
  return covered / token.length;
}

function countMatches(value: string, pattern: RegExp): number {
  return value.match(pattern)?.length ?? 0;
}

function publicRanges(text: string): Array<readonly [number, number]> {
  const ranges: Array<readonly [number, number]> = [];
  for (const match of text.matchAll(PUBLIC_PEM_BLOCK)) ranges.push([match.index, match.index + match[0].length]);
  for (const match of text.matchAll(URL)) {
    // Only the part before the query: `?token=…` values stay checked.
    const query = match[0].search(/[?#]/);
    const pathLength = query === -1 ? match[0].length : query;
    // A URL with credentials is handled by its own rule; its path is not exempt either.
    if (/^[^/]*\/\/[^/@]*@/.test(match[0])) continue;
    ranges.push([match.index, match.index + pathLength]);
  }
  return ranges;
}

const BASE64_VALUES = new Map<string, number>(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'].map((character, index) => [character, index]),
);

/** The bytes of a base64 or base64url token as Latin-1 text, or `undefined` when it is not base64. */
export function decodeBase64(token: string): string | undefined {
  const body = token.replace(/=+$/, '');
  if (body.length % 4 === 1 || /[^A-Za-z0-9+/_-]/.test(body)) return undefined;
  const characters: string[] = [];
  let buffer = 0;
  let bits = 0;
  for (const character of body) {
    const value = character === '+' || character === '-' ? 62 : character === '/' || character === '_' ? 63 : BASE64_VALUES.get(character);
    if (value === undefined) return undefined;
    buffer = ((buffer << 6) | value) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      characters.push(String.fromCharCode((buffer >> bits) & 0xff));
    }
  }
  return characters.join('');
}

/** Mostly printable characters and at least two spaces: text, not key material. */
export function isProse(decoded: string): boolean {
  if (decoded === '') return false;
  let printable = 0;
  let spaces = 0;
  for (let index = 0; index < decoded.length; index += 1) {
    const code = decoded.charCodeAt(index);
    if ((code >= 0x20 && code < 0x7f) || code === 0x09 || code === 0x0a || code === 0x0d) printable += 1;
    if (code === 0x20) spaces += 1;
  }
  return printable / decoded.length >= 0.9 && spaces >= 2;
}
