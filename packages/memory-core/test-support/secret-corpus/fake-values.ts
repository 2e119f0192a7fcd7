// Deterministic fake secrets for the guard's test corpus. Values are generated at run time from a
// seeded generator, so the repository never contains a literal token a scanner would flag, and
// every value is format-valid but random: none is, or ever was, a real credential.

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
export const ALPHABETS = {
  alphanumeric: UPPER + LOWER + DIGITS,
  upperAlphanumeric: UPPER + DIGITS,
  letters: UPPER + LOWER,
  hex: '0123456789abcdef',
  base64: UPPER + LOWER + DIGITS + '+/',
  base64url: UPPER + LOWER + DIGITS + '-_',
  digits: DIGITS,
} as const;

/** A seeded generator (mulberry32): the same seed gives the same values on every run. */
export class FakeValues {
  private state: number;

  constructor(seed: string) {
    let hash = 2166136261;
    for (let index = 0; index < seed.length; index += 1) {
      hash = Math.imul(hash ^ seed.charCodeAt(index), 16777619);
    }
    this.state = hash >>> 0;
  }

  private next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }

  /** `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string {
    let result = '';
    for (let index = 0; index < length; index += 1) {
      result += alphabet[Math.floor(this.next() * alphabet.length)] ?? '';
    }
    return result;
  }

  alphanumeric(length: number): string {
    return this.chars(ALPHABETS.alphanumeric, length);
  }

  hex(length: number): string {
    return this.chars(ALPHABETS.hex, length);
  }

  uuid(): string {
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-a${this.hex(3)}-${this.hex(12)}`;
  }

  /** A PEM-style body: `lines` lines of 64 base64 characters. */
  pemBody(lines: number): string[] {
    return Array.from({ length: lines }, () => this.chars(ALPHABETS.base64, 64));
  }
}

const BASE64_ALPHABET = ALPHABETS.base64;

/** Base64 of a Latin-1/ASCII string, without Node's Buffer (this file is not a test file). */
export function toBase64(text: string): string {
  let output = '';
  for (let index = 0; index < text.length; index += 3) {
    const a = text.charCodeAt(index);
    const b = index + 1 < text.length ? text.charCodeAt(index + 1) : Number.NaN;
    const c = index + 2 < text.length ? text.charCodeAt(index + 2) : Number.NaN;
    const triple = (a << 16) | ((Number.isNaN(b) ? 0 : b) << 8) | (Number.isNaN(c) ? 0 : c);
    output += BASE64_ALPHABET[(triple >> 18) & 63] ?? '';
    output += BASE64_ALPHABET[(triple >> 12) & 63] ?? '';
    output += Number.isNaN(b) ? '=' : (BASE64_ALPHABET[(triple >> 6) & 63] ?? '');
    output += Number.isNaN(c) ? '=' : (BASE64_ALPHABET[triple & 63] ?? '');
  }
  return output;
}

/** Base64url without padding, as in JSON Web Tokens. */
export function toBase64Url(text: string): string {
  return toBase64(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
