// What every bundle this repository ships has in common: node 20, workspace packages taken from
// their TypeScript sources (the "@graphiti-memory/source" condition), prompt-tsx's JSX factory,
// English zod messages only, `vscode` left outside (prompt-tsx loads it lazily, only inside VS Code),
// and a check that nothing else stays outside, so the file runs with node alone.
import { builtinModules } from 'node:module';
import path from 'node:path';
import { englishZodLocalesOnly } from './zod-english-locales.mjs';

/**
 * esbuild options for a bundle of the package at `packageRoot` (its tsconfig.json); spread them and
 * add the entry points, output and format.
 * @param {string} packageRoot
 * @returns {import('esbuild').BuildOptions}
 */
export function nodeBundleOptions(packageRoot) {
  return {
    bundle: true,
    platform: 'node',
    target: 'node20',
    conditions: ['@graphiti-memory/source'],
    mainFields: ['module', 'main'],
    tsconfig: path.join(packageRoot, 'tsconfig.json'),
    jsx: 'transform',
    jsxFactory: 'vscpp',
    jsxFragment: 'vscppf',
    minify: true,
    // Class names stay as written: errors and logs name them.
    keepNames: true,
    legalComments: 'none',
    external: ['vscode'],
    plugins: [englishZodLocalesOnly],
    metafile: true,
    logLevel: 'warning',
  };
}

/**
 * The banner an ES module bundle needs: CommonJS libraries inside it still `require` node's
 * built-ins and read `__filename` (write-file-atomic names its temporary files by it).
 */
export const ESM_COMMONJS_BANNER = [
  "import { createRequire as __createRequire } from 'node:module';",
  "import { fileURLToPath as __fileURLToPath } from 'node:url';",
  'const require = __createRequire(import.meta.url);',
  'const __filename = __fileURLToPath(import.meta.url);',
  "const __dirname = __fileURLToPath(new URL('.', import.meta.url));",
].join(' ');

/**
 * Throws when a bundle leaves anything outside but node's built-ins and `vscode`.
 * @param {import('esbuild').BuildResult} result built with `metafile: true`
 * @param {string} what how the message names the bundle
 * @param {string} fix what to do about it
 */
export function assertSelfContained(result, what, fix) {
  const outside = new Set();
  for (const output of Object.values(result.metafile?.outputs ?? {})) {
    for (const imported of output.imports) {
      const name = imported.path;
      if (imported.external && !name.startsWith('node:') && name !== 'vscode' && !builtinModules.includes(name)) outside.add(name);
    }
  }
  if (outside.size > 0) throw new Error(`${what} leaves ${[...outside].join(', ')} outside: ${fix}`);
}
