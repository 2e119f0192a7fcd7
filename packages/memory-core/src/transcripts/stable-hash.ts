// A stable, platform-agnostic content hash for turn ids: FNV-1a over UTF-16 code units, two
// independent 32-bit lanes for 64 bits. Not cryptographic; ids only need to be stable and rarely
// collide within one transcript.

export function stableHash(text: string): string {
  let first = 0x811c9dc5;
  let second = 0x01000193 ^ 0x5bd1e995;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995) ^ (second >>> 13);
  }
  return (first >>> 0).toString(16).padStart(8, '0') + (second >>> 0).toString(16).padStart(8, '0');
}
