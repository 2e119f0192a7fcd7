// Builds `dist/mcp-server.mjs`: the MCP server (`graphiti-harness mcp`) as one self-contained ES
// module — the harness's code, every workspace package and library it uses, bundled — so that
// `graphiti-harness mcp install` can copy it into the state folder and a client runs it with node
// alone, wherever the checkout or the global package goes later.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { englishZodLocalesOnly } from '@graphiti-memory/build-support/zod-english-locales';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const outfile = path.join(root, 'dist', 'mcp-server.mjs');

const result = await esbuild.build({
  entryPoints: [path.join(root, 'src/mcp/mcp-server-main.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['@graphiti-memory/source'],
  mainFields: ['module', 'main'],
  tsconfig: path.join(root, 'tsconfig.json'),
  jsx: 'transform',
  jsxFactory: 'vscpp',
  jsxFragment: 'vscppf',
  minify: true,
  keepNames: true,
  legalComments: 'none',
  external: ['vscode'],
  define: { GRAPHITI_HARNESS_VERSION: JSON.stringify(manifest.version) },
  plugins: [englishZodLocalesOnly],
  // CommonJS libraries inside an ES module still `require` node's built-ins and read `__filename`.
  banner: {
    js: [
      "import { createRequire as __createRequire } from 'node:module';",
      "import { fileURLToPath as __fileURLToPath } from 'node:url';",
      'const require = __createRequire(import.meta.url);',
      'const __filename = __fileURLToPath(import.meta.url);',
      "const __dirname = __fileURLToPath(new URL('.', import.meta.url));",
    ].join(' '),
  },
  metafile: true,
  logLevel: 'warning',
});
const external = new Set();
for (const output of Object.values(result.metafile.outputs)) {
  for (const imported of output.imports) if (imported.external && !imported.path.startsWith('node:') && imported.path !== 'vscode' && !builtinModules.includes(imported.path)) external.add(imported.path);
}
if (external.size > 0) throw new Error(`the MCP server bundle leaves ${[...external].join(', ')} outside: it must be self-contained`);
