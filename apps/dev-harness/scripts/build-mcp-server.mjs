// Builds `dist/mcp-server.mjs`: the MCP server (`graphiti-harness mcp`) as one self-contained ES
// module — the harness's code, every workspace package and library it uses, bundled — so that
// `graphiti-harness mcp install` can copy it into the state folder and a client runs it with node
// alone, wherever the checkout or the global package goes later.
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { assertSelfContained, ESM_COMMONJS_BANNER, nodeBundleOptions } from '@graphiti-memory/build-support/node-bundle';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

const result = await esbuild.build({
  ...nodeBundleOptions(root),
  entryPoints: [path.join(root, 'src/mcp/mcp-server-main.ts')],
  outfile: path.join(root, 'dist', 'mcp-server.mjs'),
  format: 'esm',
  define: { GRAPHITI_HARNESS_VERSION: JSON.stringify(manifest.version) },
  banner: { js: ESM_COMMONJS_BANNER },
});
assertSelfContained(result, 'the MCP server bundle', 'it must be self-contained');
