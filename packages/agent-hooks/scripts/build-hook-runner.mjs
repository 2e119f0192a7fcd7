// Bundles the hook runner into two self-contained CommonJS files: plain `node` runs them with no
// node_modules next to them (the VS Code extension ships both in its VSIX).
//   dist/hook-runner.cjs                  the entry agent hooks start: node built-ins only, so it
//                                         starts about as fast as `node -e 0`, and hands the event
//                                         to the per-user hook server;
//   dist/hook-runner-core-<build>.cjs     everything else (the hook, the server), loaded only when
//                                         no server answers, or to become the server.
// <build> is a hash of both: it names the core (an updated entry never loads an old core, and
// copying the core first, then the entry, replaces a runner atomically) and the server's build.
// Workspace packages bundle from their TypeScript sources through the "@graphiti-memory/source"
// condition. Minified: parsing less is starting faster.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { undiciAgentOnly } from '@graphiti-memory/build-support/undici-agent-only';
import { englishZodLocalesOnly } from '@graphiti-memory/build-support/zod-english-locales';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const dist = path.join(root, 'dist');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  conditions: ['@graphiti-memory/source'],
  mainFields: ['module', 'main'],
  tsconfig: path.join(root, 'tsconfig.json'),
  jsx: 'transform',
  jsxFactory: 'vscpp',
  jsxFragment: 'vscppf',
  minify: true,
  legalComments: 'none',
  // prompt-tsx requires `vscode` lazily, only inside VS Code; the runner never reaches it.
  external: ['vscode'],
  plugins: [englishZodLocalesOnly, undiciAgentOnly],
  metafile: true,
  logLevel: 'warning',
  write: false,
};

const core = await esbuild.build({ ...common, entryPoints: [path.join(root, 'src/hook/hook-core.ts')], outfile: path.join(dist, 'hook-runner-core.cjs') });
const entryWith = (build) =>
  esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'src/hook/hook-runner.ts')],
    outfile: path.join(dist, 'hook-runner.cjs'),
    define: { __HOOK_RUNNER_BUILD__: JSON.stringify(build) },
    banner: { js: '#!/usr/bin/env node' },
  });
const hash = createHash('sha256').update(core.outputFiles[0].contents).update((await entryWith('')).outputFiles[0].contents);
const build = hash.digest('hex').slice(0, 12);
const entry = await entryWith(build);
// The entry must stay small: a module from outside src/hook (a package, a library) is a bug.
const outside = Object.keys(entry.metafile.inputs).filter((input) => !input.startsWith('src/hook/'));
if (outside.length > 0) throw new Error(`dist/hook-runner.cjs must load node built-ins only, but bundles ${outside.join(', ')}`);

// The MCP SDK (its zod schemas, ajv) must stay lazy: graphiti-client reaches it by `import()` when an
// MCP session opens, which esbuild keeps as a deferred init. A static import or require chain from
// the core's entry to it would make every cold hook evaluate it.
const eager = new Set();
const pending = [Object.values(core.metafile.outputs)[0].entryPoint];
while (pending.length > 0) {
  const input = pending.pop();
  if (eager.has(input) || core.metafile.inputs[input] === undefined) continue;
  eager.add(input);
  for (const imported of core.metafile.inputs[input].imports) if (imported.kind !== 'dynamic-import' && !imported.external) pending.push(imported.path);
}
const eagerSdk = [...eager].filter((input) => input.includes('@modelcontextprotocol/sdk/'));
if (eagerSdk.length > 0) throw new Error(`the hook core must load the MCP SDK only through graphiti-client's import(), but statically reaches ${eagerSdk.slice(0, 3).join(', ')}`);

// undici's fetch, WebSocket, EventSource, cache, cookies and mocks must stay out: undiciAgentOnly
// maps graphiti-client's `Agent` import to the agent module and the request methods alone.
const undiciUnused = Object.keys(core.metafile.inputs).filter((input) =>
  /[\\/]undici[\\/]lib[\\/](web[\\/](fetch[\\/]index\.js|websocket[\\/]|eventsource[\\/]|cache[\\/]|cookies[\\/])|mock[\\/])/.test(input),
);
if (undiciUnused.length > 0) throw new Error(`the hook core must bundle only undici's Agent, but bundles ${undiciUnused.slice(0, 3).join(', ')}`);

fs.mkdirSync(dist, { recursive: true });
for (const name of fs.readdirSync(dist)) if (/^hook-runner-core-[0-9a-f]+\.cjs$/.test(name)) fs.rmSync(path.join(dist, name));
const coreFile = path.join(dist, `hook-runner-core-${build}.cjs`);
fs.writeFileSync(coreFile, core.outputFiles[0].contents);
fs.writeFileSync(path.join(dist, 'hook-runner.cjs'), entry.outputFiles[0].contents);
console.log(`dist/hook-runner.cjs: ${(entry.outputFiles[0].contents.length / 1024).toFixed(1)} KiB; dist/${path.basename(coreFile)}: ${(core.outputFiles[0].contents.length / 1024).toFixed(0)} KiB`);
if (process.argv.includes('--analyze')) console.log(await esbuild.analyzeMetafile(core.metafile), await esbuild.analyzeMetafile(entry.metafile));

