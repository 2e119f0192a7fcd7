// Bundles the extension into one CommonJS file: dist/extension.cjs (`vscode` stays external).
// `--production` minifies; a sourcemap is always written. Workspace packages bundle from their
// TypeScript sources through the "@graphiti-memory/source" export condition.
import path from 'node:path';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = import.meta.dirname;

/** @type {import('esbuild').BuildOptions} */
const options = {
  entryPoints: [path.join(root, 'src/extension.ts')],
  outfile: path.join(root, 'dist/extension.cjs'),
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
  sourcemap: true,
  sourcesContent: false,
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};

if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
} else {
  const result = await esbuild.build(options);
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
  console.log(`dist/extension.cjs: ${(bytes / 1024).toFixed(0)} KiB (${production ? 'production' : 'development'})`);
}
