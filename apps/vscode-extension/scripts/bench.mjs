// Activation cost and VSIX size. Each sample is a fresh Node process that loads a bundle with a
// stubbed `vscode` module and calls activate(); the extension's time is reported as a ratio of an
// empty extension's (load + activate), so machines of different speed compare. `--json` prints
// `{ results: [...] }`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const json = process.argv.includes('--json');
const samples = Number(process.env.BENCH_SAMPLES ?? 7);
const bundle = path.join(root, 'dist', 'extension.cjs');
if (!fs.existsSync(bundle)) throw new Error(`${bundle} is missing: run "node esbuild.mjs --production" first.`);

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-memory-bench-'));
const empty = path.join(work, 'empty-extension.cjs');
fs.writeFileSync(empty, "'use strict';\nexports.activate = function activate() { return {}; };\nexports.deactivate = function deactivate() {};\n");
const probe = path.join(work, 'probe.cjs');
fs.writeFileSync(
  probe,
  `'use strict';
const { createContext } = require(${JSON.stringify(path.join(root, 'scripts', 'vscode-stub.cjs'))});
const { performance } = require('node:perf_hooks');
const start = performance.now();
const extension = require(process.argv[2]);
extension.activate(createContext(process.argv[3]));
const elapsed = performance.now() - start;
process.stdout.write(JSON.stringify({ ms: elapsed }));
setImmediate(() => process.exit(0));
`,
);

function measure(file) {
  const times = [];
  for (let index = 0; index < samples; index += 1) {
    const output = execFileSync(process.execPath, [probe, file, path.join(work, `storage-${index}`)], { encoding: 'utf8' });
    times.push(JSON.parse(output).ms);
  }
  times.sort((left, right) => left - right);
  return times[Math.floor(times.length / 2)];
}

const emptyMs = measure(empty);
const extensionMs = measure(bundle);
const vsix = fs.readdirSync(root).find((name) => /^graphiti-memory-.*\.vsix$/.test(name));
const results = [
  { name: 'activate.empty-extension', unit: 'ms', value: Number(emptyMs.toFixed(2)) },
  { name: 'activate.graphiti-memory', unit: 'ms', value: Number(extensionMs.toFixed(2)) },
  { name: 'activate.ratio', unit: 'x', value: Number((extensionMs / emptyMs).toFixed(1)) },
  { name: 'bundle.size', unit: 'bytes', value: fs.statSync(bundle).size },
  ...(vsix ? [{ name: 'vsix.size', unit: 'bytes', value: fs.statSync(path.join(root, vsix)).size }] : []),
];
fs.rmSync(work, { recursive: true, force: true });

if (json) console.log(JSON.stringify({ results }, null, 2));
else for (const result of results) console.log(`${result.name.padEnd(28)} ${result.value} ${result.unit}`);
