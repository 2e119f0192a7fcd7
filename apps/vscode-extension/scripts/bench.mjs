// Activation cost and VSIX size. Each sample is a fresh Node process that loads the entry bundle
// with a stubbed `vscode` module and calls activate(); the extension's time is reported as a ratio
// of an empty extension's (load + activate), so machines of different speed compare. Memory is off
// (the default) unless stated: `activate.enabled_ms` is the same with memory on, which also loads
// the runtime bundle. `activate.loaded_bytes` counts the extension's JavaScript files Node loaded
// with memory off. `--json` prints `{ results: [...] }`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const json = process.argv.includes('--json');
const samples = Number(process.env.BENCH_SAMPLES ?? 7);
const bundle = path.join(root, 'dist', 'extension.cjs');
const runtime = path.join(root, 'dist', 'runtime.cjs');
for (const file of [bundle, runtime]) {
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run "node esbuild.mjs --production" first.`);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-memory-bench-'));
const empty = path.join(work, 'empty-extension.cjs');
fs.writeFileSync(empty, "'use strict';\nexports.activate = function activate() { return {}; };\nexports.deactivate = function deactivate() {};\n");
const probe = path.join(work, 'probe.cjs');
fs.writeFileSync(
  probe,
  `'use strict';
const fs = require('node:fs');
const { createContext } = require(${JSON.stringify(path.join(root, 'scripts', 'vscode-stub.cjs'))});
const { performance } = require('node:perf_hooks');
const [file, storage, enabled] = process.argv.slice(2);
// VS Code hands the parsed manifest over; reading it is not the extension's cost.
const context = createContext(storage, { packageJSON: JSON.parse(fs.readFileSync(${JSON.stringify(path.join(root, 'package.json'))}, 'utf8')), enabled: enabled === 'on' });
const before = new Set(Object.keys(require.cache));
const start = performance.now();
const extension = require(file);
extension.activate(context);
const elapsed = performance.now() - start;
const loaded = Object.keys(require.cache).filter((name) => !before.has(name));
const bytes = loaded.reduce((sum, name) => sum + fs.statSync(name).size, 0);
process.stdout.write(JSON.stringify({ ms: elapsed, bytes }));
setImmediate(() => process.exit(0));
`,
);

function measure(file, enabled = 'off') {
  const runs = [];
  for (let index = 0; index < samples; index += 1) {
    const output = execFileSync(process.execPath, [probe, file, path.join(work, `storage-${index}`), enabled], { encoding: 'utf8' });
    runs.push(JSON.parse(output));
  }
  runs.sort((left, right) => left.ms - right.ms);
  return runs[Math.floor(runs.length / 2)];
}

const emptyRun = measure(empty);
const disabledRun = measure(bundle);
const enabledRun = measure(bundle, 'on');
const vsix = fs.readdirSync(root).find((name) => /^graphiti-memory-.*\.vsix$/.test(name));
const results = [
  { name: 'activate.empty-extension', unit: 'ms', value: Number(emptyRun.ms.toFixed(2)) },
  { name: 'activate.graphiti-memory', unit: 'ms', value: Number(disabledRun.ms.toFixed(2)) },
  { name: 'activate.ratio', unit: 'x', value: Number((disabledRun.ms / emptyRun.ms).toFixed(1)) },
  { name: 'activate.disabled_ms', unit: 'ms', value: Number(disabledRun.ms.toFixed(2)) },
  { name: 'activate.loaded_bytes', unit: 'bytes', value: disabledRun.bytes },
  { name: 'activate.enabled_ms', unit: 'ms', value: Number(enabledRun.ms.toFixed(2)) },
  { name: 'activate.enabled_loaded_bytes', unit: 'bytes', value: enabledRun.bytes },
  { name: 'bundle.size', unit: 'bytes', value: fs.statSync(bundle).size },
  { name: 'bundle.runtime.size', unit: 'bytes', value: fs.statSync(runtime).size },
  ...(vsix ? [{ name: 'vsix.size', unit: 'bytes', value: fs.statSync(path.join(root, vsix)).size }] : []),
];
fs.rmSync(work, { recursive: true, force: true });

if (json) console.log(JSON.stringify({ results }, null, 2));
else for (const result of results) console.log(`${result.name.padEnd(30)} ${result.value} ${result.unit}`);
