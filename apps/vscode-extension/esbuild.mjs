// Bundles the extension into two CommonJS files (`vscode` stays external): dist/extension.cjs, the
// small entry VS Code activates, and dist/runtime.cjs, the memory runtime the entry `require`s on
// first need. `--production` minifies; source maps are written beside the bundles but never
// shipped (.vscodeignore). Workspace packages bundle from their TypeScript sources through the
// "@graphiti-memory/source" export condition.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { englishZodLocalesOnly } from '@graphiti-memory/build-support/zod-english-locales';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = import.meta.dirname;
// The agent hook runner ships in the VSIX as built by the harness (its `build` runs first: the
// harness is a devDependency, so turbo's ^build orders it). `--require-hook-runner` (packaging)
// fails without it; a plain build warns, and Connect then says the runner is missing.
const hookRunner = path.join(root, '../dev-harness/dist/hook-runner.cjs');
const requireHookRunner = process.argv.includes('--require-hook-runner');

const hookRunnerCore = /^hook-runner-core-[0-9a-f]+\.cjs$/;

/** The runner's entry and its core (the harness builds both); older cores in dist/ are removed. */
function copyHookRunner() {
  const target = path.join(root, 'dist/hook-runner.cjs');
  const source = path.dirname(hookRunner);
  const cores = fs.existsSync(source) ? fs.readdirSync(source).filter((name) => hookRunnerCore.test(name)) : [];
  if (!fs.existsSync(hookRunner) || cores.length !== 1) {
    const message = `${path.relative(root, hookRunner)} and exactly one hook-runner-core-*.cjs beside it are needed: build the harness first (turbo run build --filter=graphiti-memory...)`;
    if (requireHookRunner) throw new Error(message);
    console.warn(`warning: ${message}; the VSIX would ship without the agent hook runner`);
    return;
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  for (const name of fs.readdirSync(path.dirname(target))) if (hookRunnerCore.test(name) && !cores.includes(name)) fs.rmSync(path.join(path.dirname(target), name));
  fs.copyFileSync(path.join(source, cores[0]), path.join(path.dirname(target), cores[0]));
  fs.copyFileSync(hookRunner, target);
  const bytes = fs.statSync(target).size + fs.statSync(path.join(path.dirname(target), cores[0])).size;
  console.log(`dist/hook-runner.cjs + dist/${cores[0]}: ${(bytes / 1024).toFixed(0)} KiB (copied from the harness)`);
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
  // Linked while developing; in production external, so the bundles carry no sourceMappingURL.
  sourcemap: production ? 'external' : 'linked',
  sourcesContent: false,
  legalComments: 'none',
  plugins: [englishZodLocalesOnly],
  metafile: true,
  logLevel: 'warning',
};

if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
} else {
  const result = await esbuild.build(options);
  copyHookRunner();
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (file.endsWith('.cjs')) console.log(`${path.relative(root, file)}: ${(output.bytes / 1024).toFixed(0)} KiB (${production ? 'production' : 'development'})`);
  }
}
