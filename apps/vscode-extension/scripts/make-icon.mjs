// Writes images/icon.png: a 128×128 icon (three linked graph nodes on a dark disc), drawn pixel by
// pixel and encoded as PNG with node:zlib, so no image tool is needed. Run once; the PNG is committed.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const size = 128;
const pixels = Buffer.alloc(size * size * 4);
const nodes = [
  [40, 44],
  [90, 40],
  [64, 92],
];
function distanceToSegment(x, y, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
}
for (let y = 0; y < size; y += 1) {
  for (let x = 0; x < size; x += 1) {
    const offset = (y * size + x) * 4;
    const disc = Math.hypot(x - 63.5, y - 63.5) <= 62;
    let color = disc ? [30, 41, 59, 255] : [0, 0, 0, 0];
    const edge = [
      [0, 1],
      [1, 2],
      [2, 0],
    ].some(([a, b]) => distanceToSegment(x, y, nodes[a], nodes[b]) < 3.5);
    if (disc && edge) color = [148, 163, 184, 255];
    for (const [index, [nx, ny]] of nodes.entries()) {
      if (Math.hypot(x - nx, y - ny) < 13) color = index === 2 ? [251, 191, 36, 255] : [56, 189, 248, 255];
    }
    pixels.set(color, offset);
  }
}

const table = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = table[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
const raw = Buffer.alloc(size * (size * 4 + 1));
for (let y = 0; y < size; y += 1) pixels.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
const target = path.join(import.meta.dirname, '..', 'images', 'icon.png');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, png);
console.log(`${target}: ${png.length} bytes`);
