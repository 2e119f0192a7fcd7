// Bundles the hook runner into one self-contained CommonJS file, dist/hook-runner.cjs: plain `node`
// runs it with no node_modules next to it (the VS Code extension ships it in its VSIX). Workspace
// packages bundle from their TypeScript sources through the "@graphiti-memory/source" condition.
// Minified: agent hooks start it on every prompt, and parsing less is starting faster.
import path from 'node:path';
import * as esbuild from 'esbuild';
import { englishZodLocalesOnly } from '@graphiti-memory/build-support/zod-english-locales';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));

const result = await esbuild.build({
  entryPoints: [path.join(root, 'src/hook/hook-runner.ts')],
  outfile: path.join(root, 'dist/hook-runner.cjs'),
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
  plugins: [englishZodLocalesOnly],
  metafile: true,
  logLevel: 'warning',
  banner: { js: '#!/usr/bin/env node' },
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`dist/hook-runner.cjs: ${(bytes / 1024).toFixed(0)} KiB`);
if (process.argv.includes('--analyze')) console.log(await esbuild.analyzeMetafile(result.metafile));
