// Packaging check, run after `vsce package`: the VSIX carries no source maps and stays under
// 680 KB (600 KB until 0.1.0, whose release notes, local tier, secret folding and runner copy added
// about 14 KB compressed; 640 KB until the five assistants' descriptors and transcript readers,
// Codex's TOML check, loops, edit and the structured mirror added about 5 KB more to the runner). Most of it is the agent hook runner's core, which also carries the libraries of the
// extension's runtime (shared-stack-plugin.mjs): they ship once. Reads the zip's central
// directory itself (names only), so it needs no dependency.
// Usage: node scripts/check-vsix.mjs [file.vsix]; exits 1 with the reason when a rule is broken.
import fs from 'node:fs';
import path from 'node:path';

export const MAX_VSIX_BYTES = 680 * 1000;

/** The file names inside a zip archive. */
export function zipEntries(buffer) {
  // The end-of-central-directory record sits in the last 64 KiB + 22 bytes.
  let end = -1;
  for (let offset = buffer.length - 22; offset >= Math.max(0, buffer.length - 65_557); offset -= 1) {
    if (buffer.readUInt32LE(offset) === 0x06054b50) {
      end = offset;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip archive: no end-of-central-directory record');
  const count = buffer.readUInt16LE(end + 10);
  let offset = buffer.readUInt32LE(end + 16);
  const names = [];
  for (let index = 0; index < count; index += 1) {
    if (buffer.readUInt32LE(offset) !== 0x02014b50) throw new Error(`not a zip archive: bad central directory entry ${index}`);
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extraLength = buffer.readUInt16LE(offset + 30);
    const commentLength = buffer.readUInt16LE(offset + 32);
    names.push(buffer.toString('utf8', offset + 46, offset + 46 + nameLength));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** What is wrong with a VSIX; empty when it is fine. */
export function vsixProblems(file) {
  const buffer = fs.readFileSync(file);
  const problems = [];
  if (buffer.length >= MAX_VSIX_BYTES) problems.push(`${path.basename(file)} is ${buffer.length} bytes, over the ${MAX_VSIX_BYTES}-byte budget`);
  const names = zipEntries(buffer);
  const maps = names.filter((name) => name.endsWith('.map'));
  if (maps.length > 0) problems.push(`${path.basename(file)} carries source maps: ${maps.join(', ')} (keep them out in .vscodeignore)`);
  // The hook runner is an entry and exactly the one core it names (hook-runner-core-<build>.cjs).
  const cores = names.filter((name) => /^extension\/dist\/hook-runner-core-[0-9a-f]+\.cjs$/.test(name));
  if (!names.includes('extension/dist/hook-runner.cjs') || cores.length !== 1) {
    problems.push(`${path.basename(file)} must carry dist/hook-runner.cjs and exactly one dist/hook-runner-core-*.cjs (found ${cores.length}); rebuild the harness, then package`);
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, '..');
  const file = process.argv[2] ?? fs.readdirSync(root).find((name) => /^graphiti-memory-.*\.vsix$/.test(name));
  if (file === undefined) {
    console.error('check-vsix: no graphiti-memory-*.vsix here; run "pnpm --filter graphiti-memory package" first.');
    process.exit(1);
  }
  const problems = vsixProblems(path.resolve(root, file));
  for (const problem of problems) console.error(`check-vsix: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(`check-vsix: ${file} is fine (${fs.statSync(path.resolve(root, file)).size} bytes, no source maps)`);
}
