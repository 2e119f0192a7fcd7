// CRC-32 (IEEE 802.3, the one zlib and gzip use) of a string's UTF-8 bytes. Node ≥ 20.15 has it
// built in (`zlib.crc32`); older runtimes, such as an Electron host on an earlier Node, use the
// table-driven fallback below, which gives the same values. zlib is loaded on the first checksum,
// not with the module: most one-event hook runs never write or read a journal line, and loading
// node:zlib costs a cold hook about 1.5 ms.

type Crc32Function = (text: string) => number;

let table: Uint32Array | undefined;

function crcTable(): Uint32Array {
  if (table !== undefined) return table;
  table = new Uint32Array(256);
  for (let index = 0; index < 256; index++) {
    let value = index;
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
    table[index] = value >>> 0;
  }
  return table;
}

/** The portable implementation; exported so tests can prove it agrees with zlib's. */
export function crc32Fallback(text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  const lookup = crcTable();
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (lookup[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

let chosen: Crc32Function | undefined;

function choose(): Crc32Function {
  const builtIn = (process.getBuiltinModule('node:zlib') as { crc32?: (data: string) => number }).crc32;
  return typeof builtIn === 'function' ? (text) => builtIn(text) >>> 0 : crc32Fallback;
}

export const crc32: Crc32Function = (text) => (chosen ??= choose())(text);
