// Bundles the extension into two CommonJS files (`vscode` stays external): dist/extension.cjs, the
// small entry VS Code activates, and dist/runtime.cjs, the memory runtime the entry `require`s on
// first need. `--production` minifies; source maps are written beside the bundles but never
// shipped (.vscodeignore). Workspace packages bundle from their TypeScript sources through the
// "@graphiti-memory/source" export condition.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { undiciAgentOnly } from '@graphiti-memory/build-support/undici-agent-only';
import { englishZodLocalesOnly } from '@graphiti-memory/build-support/zod-english-locales';
import { sharedStack } from './shared-stack-plugin.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = import.meta.dirname;
// The agent hook runner ships in the VSIX as built by @graphiti-memory/agent-hooks (its `build` runs
// first: the package is a devDependency, so turbo's ^build orders it). `--require-hook-runner`
// (packaging) fails without it; a plain build warns, and Connect then says the runner is missing.
const hookRunner = path.join(path.dirname(createRequire(import.meta.url).resolve('@graphiti-memory/agent-hooks/package.json')), 'dist', 'hook-runner.cjs');
const requireHookRunner = process.argv.includes('--require-hook-runner');

const hookRunnerCore = /^hook-runner-core-([0-9a-f]+)\.cjs$/;
/**
 * The core the runner entry loads (its build id is a string in the entry), which also carries the
 * runtime's libraries (shared-stack-plugin.mjs). Matched by that id, not by being alone: turbo's
 * cache replays a build's files into dist/ without removing an older build's core.
 */
function coreOfRunner() {
  if (!fs.existsSync(hookRunner)) return undefined;
  const entry = fs.readFileSync(hookRunner, 'utf8');
  const cores = fs.readdirSync(path.dirname(hookRunner)).filter((name) => {
    const build = hookRunnerCore.exec(name)?.[1];
    return build !== undefined && entry.includes(`"${build}"`);
  });
  return cores.length === 1 ? cores[0] : undefined;
}
const runnerCore = coreOfRunner();
if (runnerCore === undefined) {
  const message = `${path.relative(root, hookRunner)} and the hook-runner-core-<build>.cjs it loads are needed beside each other: build the hooks package first (turbo run build --filter=graphiti-memory...)`;
  if (requireHookRunner) throw new Error(message);
  console.warn(`warning: ${message}; the VSIX would ship without the agent hook runner, and the runtime bundles its own libraries`);
}

/** The runner's entry and its core (agent-hooks builds both); older cores in dist/ are removed. */
function copyHookRunner() {
  if (runnerCore === undefined) return;
  const dist = path.join(root, 'dist');
  fs.mkdirSync(dist, { recursive: true });
  for (const name of fs.readdirSync(dist)) if (hookRunnerCore.test(name) && name !== runnerCore) fs.rmSync(path.join(dist, name));
  // The core first: the runtime and the entry both load it by name.
  fs.copyFileSync(path.join(path.dirname(hookRunner), runnerCore), path.join(dist, runnerCore));
  fs.copyFileSync(hookRunner, path.join(dist, 'hook-runner.cjs'));
  console.log(`dist/hook-runner.cjs: ${(fs.statSync(path.join(dist, 'hook-runner.cjs')).size / 1024).toFixed(0)} KiB, dist/${runnerCore}: ${(fs.statSync(path.join(dist, runnerCore)).size / 1024).toFixed(0)} KiB (copied from @graphiti-memory/agent-hooks)`);
}

/** Fails the build when the runtime still carries a library the runner's core shares with it. */
function assertShared(metafile) {
  const runtime = Object.entries(metafile.outputs).find(([file]) => file.endsWith('runtime.cjs'))?.[1];
  const duplicated = Object.keys(runtime?.inputs ?? {}).filter((input) => /(^|\/)packages\/|node_modules\/(inversify|@inversifyjs|@vscode\/prompt-tsx|env-paths|zod|undici)\//.test(input));
  if (duplicated.length > 0) throw new Error(`dist/runtime.cjs bundles what ${runnerCore} already carries: ${duplicated.slice(0, 5).join(', ')}…; add the import to shared-stack-plugin.mjs and packages/agent-hooks/src/hook/shared-stack.ts`);
}

/** @type {import('esbuild').BuildOptions} */
const options = {
  entryPoints: { extension: path.join(root, 'src/extension.ts'), runtime: path.join(root, 'src/runtime.ts') },
  outdir: path.join(root, 'dist'),
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  conditions: ['@graphiti-memory/source'],
  mainFields: ['module', 'main'],
  tsconfig: path.join(root, 'tsconfig.json'),
  jsx: 'transform',
  jsxFactory: 'vscpp',
  jsxFragment: 'vscppf',
  minify: production,
  // Class names stay as written: log lines name features and errors by them.
  keepNames: true,
  // Linked while developing; in production external, so the bundles carry no sourceMappingURL.
  sourcemap: production ? 'external' : 'linked',
  sourcesContent: false,
  legalComments: 'none',
  plugins: runnerCore === undefined ? [englishZodLocalesOnly, undiciAgentOnly] : [englishZodLocalesOnly, undiciAgentOnly, sharedStack(runnerCore)],
  metafile: true,
  logLevel: 'warning',
};

copyHookRunner();
if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
} else {
  const result = await esbuild.build(options);
  if (runnerCore !== undefined) assertShared(result.metafile);
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (file.endsWith('.cjs')) console.log(`${path.relative(root, file)}: ${(output.bytes / 1024).toFixed(0)} KiB (${production ? 'production' : 'development'})`);
  }
}
