// Bundles the hook runner into three self-contained CommonJS files: plain `node` runs them with no
// node_modules next to them (the VS Code extension ships them all in its VSIX).
//   dist/hook-runner.cjs                  the entry agent hooks start: node built-ins only, so it
//                                         starts about as fast as `node -e 0`, and hands the event
//                                         to the per-user hook server;
//   dist/hook-runner-core-<build>.cjs     everything else (the hook, the server), loaded only when
//                                         no server answers, or to become the server;
//   dist/hook-runner-prompt-<build>.cjs   the lean core: UserPromptSubmit alone (the same modules,
//                                         without the server, drainer and other events), what a
//                                         cold prompt loads instead of the core.
// <build> is a hash of all three: it names the cores (an updated entry never loads an old core, and
// copying the core first, then the entry, replaces a runner atomically) and the server's build.
// Workspace packages bundle from their TypeScript sources through the "@graphiti-memory/source"
// condition. Minified: parsing less is starting faster.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { undiciAgentOnly } from '@graphiti-memory/build-support/undici-agent-only';
import { nodeBundleOptions } from '@graphiti-memory/build-support/node-bundle';
import { englishZodLocalesOnly } from '@graphiti-memory/build-support/zod-english-locales';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const dist = path.join(root, 'dist');

/** @type {import('esbuild').BuildOptions} */
const common = {
  ...nodeBundleOptions(root),
  format: 'cjs',
  // HOOK_RUNNER_NO_MINIFY=1: readable names in a --cpu-prof profile.
  minify: process.env.HOOK_RUNNER_NO_MINIFY !== '1',
  // Smaller and faster to parse: the runner's class names are not in its messages.
  keepNames: false,
  plugins: [englishZodLocalesOnly, undiciAgentOnly],
  write: false,
};

const core = await esbuild.build({ ...common, entryPoints: [path.join(root, 'src/hook/hook-core.ts')], outfile: path.join(dist, 'hook-runner-core.cjs') });
const prompt = await esbuild.build({ ...common, entryPoints: [path.join(root, 'src/hook/prompt-submit-core.ts')], outfile: path.join(dist, 'hook-runner-prompt.cjs') });
const entryWith = (build) =>
  esbuild.build({
    ...common,
    entryPoints: [path.join(root, 'src/hook/hook-runner.ts')],
    outfile: path.join(dist, 'hook-runner.cjs'),
    define: { __HOOK_RUNNER_BUILD__: JSON.stringify(build) },
    banner: { js: '#!/usr/bin/env node' },
  });
const hash = createHash('sha256').update(core.outputFiles[0].contents).update(prompt.outputFiles[0].contents).update((await entryWith('')).outputFiles[0].contents);
const build = hash.digest('hex').slice(0, 12);
const entry = await entryWith(build);
// The entry must stay small: a module from outside src/hook and src/assistants (the descriptors: a
// package, a library) is a bug.
const outside = Object.keys(entry.metafile.inputs).filter((input) => !input.startsWith('src/hook/') && !input.startsWith('src/assistants/'));
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

// The lean core is worth having only while it leaves out what a prompt does not run.
// (What the output holds: an input only visited, its code shaken off, is not in it.)
const promptInputs = Object.entries(Object.values(prompt.metafile.outputs)[0].inputs).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : []));
const promptExtra = promptInputs.filter((input) =>
  /^src\/hook\/(hook-server|hook-drainer|session-start|session-stop|transcript-capture|hook-events|shared-stack)\.ts$|[\\/]chokidar[\\/]/.test(input),
);
if (promptExtra.length > 0) throw new Error(`dist/hook-runner-prompt-<build>.cjs must carry UserPromptSubmit alone, but bundles ${promptExtra.join(', ')}`);
// A prompt only recalls (openRecallMemory): memory-core's send side (ingestion, promotion, forget,
// turn planning) and memory-node-storage's outbox and journal must stay out of the lean core. The
// forget ledger, the promotion episode format and name (team authors, their verification) and the
// file locks are recall's too.
const promptSendSide = promptInputs.filter((input) =>
  /memory-core[\\/]src[\\/](ingestion[\\/]|planning[\\/]|promotion[\\/](?!(?:episode-format|promotion-name)\.ts$)|forget[\\/](?!forget-ledger\.ts$))|memory-node-storage[\\/]src[\\/](outbox[\\/](?!file-locks\.ts$)|journal[\\/]|composition[\\/])/.test(input),
);
if (promptSendSide.length > 0) throw new Error(`dist/hook-runner-prompt-<build>.cjs must open memory to recall only, but bundles the send side: ${promptSendSide.join(', ')}`);

fs.mkdirSync(dist, { recursive: true });
for (const name of fs.readdirSync(dist)) if (/^hook-runner-(core|prompt)-[0-9a-f]+\.cjs$/.test(name)) fs.rmSync(path.join(dist, name));
const coreFile = path.join(dist, `hook-runner-core-${build}.cjs`);
const promptFile = path.join(dist, `hook-runner-prompt-${build}.cjs`);
// The cores before the entry that names them.
fs.writeFileSync(coreFile, core.outputFiles[0].contents);
fs.writeFileSync(promptFile, prompt.outputFiles[0].contents);
fs.writeFileSync(path.join(dist, 'hook-runner.cjs'), entry.outputFiles[0].contents);
const kib = (file) => (file.outputFiles[0].contents.length / 1024).toFixed(0);
console.log(`dist/hook-runner.cjs: ${(entry.outputFiles[0].contents.length / 1024).toFixed(1)} KiB; dist/${path.basename(coreFile)}: ${kib(core)} KiB; dist/${path.basename(promptFile)}: ${kib(prompt)} KiB`);
if (process.argv.includes('--analyze')) console.log(await esbuild.analyzeMetafile(core.metafile), await esbuild.analyzeMetafile(prompt.metafile), await esbuild.analyzeMetafile(entry.metafile));

