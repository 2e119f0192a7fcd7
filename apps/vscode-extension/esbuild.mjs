// Bundles the extension into two CommonJS files (`vscode` stays external): dist/extension.cjs, the
// small entry VS Code activates, and dist/runtime.cjs, the memory runtime the entry `require`s on
// first need. `--production` minifies; source maps are written beside the bundles but never
// shipped (.vscodeignore). Workspace packages bundle from their TypeScript sources through the
// "@graphiti-memory/source" export condition.
import path from 'node:path';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = import.meta.dirname;

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
  metafile: true,
  logLevel: 'warning',
};

if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
} else {
  const result = await esbuild.build(options);
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (file.endsWith('.cjs')) console.log(`${path.relative(root, file)}: ${(output.bytes / 1024).toFixed(0)} KiB (${production ? 'production' : 'development'})`);
  }
}
