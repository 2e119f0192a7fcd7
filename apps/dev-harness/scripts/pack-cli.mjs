// `pnpm pack:cli`: packs `graphiti-harness` into one self-contained npm tarball that installs with
// only Node and npm (`npm install -g graphiti-harness-<version>.tgz`): no workspace links, no build
// on the user's machine, no dependencies to fetch. The last line printed is the tarball's path.
//
// It packs a generated package folder, not this workspace package: the workspace package keeps its
// name (@graphiti-memory/dev-harness: changesets and turbo filters name it), its tests, devDependencies
// and workspace links; what ships is `graphiti-harness` at the workspace package's version:
//   package.json                       name graphiti-harness, this package's version, bin, no dependencies
//   bin/graphiti-harness.js            the launcher (imports ../dist/bin.js)
//   dist/bin.js, dist/chunk-*.js       the harness and every package and library it uses, bundled
//                                      (ESM; the MCP SDK and other lazy imports in chunks of their own)
//   dist/emulator-thread.js            `bench`'s worker (found beside the bundle by URL)
//   dist/mcp-server.mjs                the MCP server in one file, as the harness's build made it (`mcp install` copies it)
//   dist/hook-runner.cjs + cores       agent-hooks' runner, as built; `hooks install` copies it into
//                                      the state folder (hookRunnerFile(): <bundle folder>/../dist/)
//   memory-page/                       the memory page's HTML, JS and CSS (`graphiti-harness ui`)
//   README.md, LICENSE, CHANGELOG.md   (CHANGELOG once changesets wrote one)
//
// Usage: node scripts/pack-cli.mjs [--out DIR] [--release-from DIR]
//   --out           where the folder and the tarball go (default: <repo>/dist/packages)
//   --release-from  a versioned copy of this package's folder (release:dry): its package.json's
//                   version and its CHANGELOG.md ship instead of this folder's
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { assertSelfContained, ESM_COMMONJS_BANNER, nodeBundleOptions } from '@graphiti-memory/build-support/node-bundle';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const repository = path.resolve(root, '..', '..');
const outIndex = process.argv.indexOf('--out');
const out = path.resolve(outIndex === -1 ? path.join(repository, 'dist', 'packages') : process.argv[outIndex + 1] ?? '');
const releaseIndex = process.argv.indexOf('--release-from');
const release = releaseIndex === -1 ? root : path.resolve(process.argv[releaseIndex + 1] ?? '');
const manifest = JSON.parse(fs.readFileSync(path.join(release, 'package.json'), 'utf8'));
const folder = path.join(out, 'graphiti-harness');

// The runner agent-hooks built: the entry and the cores it names (turbo's cache may leave older ones).
const hookRunner = path.join(path.dirname(createRequire(import.meta.url).resolve('@graphiti-memory/agent-hooks/package.json')), 'dist', 'hook-runner.cjs');
if (!fs.existsSync(hookRunner)) throw new Error(`${hookRunner} is missing: build the hooks package first (pnpm turbo run build --filter=@graphiti-memory/dev-harness...)`);
const entryText = fs.readFileSync(hookRunner, 'utf8');
const runnerFiles = fs.readdirSync(path.dirname(hookRunner)).filter((name) => {
  const build = /^hook-runner-(?:core|prompt)-([0-9a-f]+)\.cjs$/.exec(name)?.[1];
  return build !== undefined && entryText.includes(`"${build}"`);
});
if (!runnerFiles.some((name) => name.startsWith('hook-runner-core-'))) throw new Error(`no hook-runner-core-<build>.cjs named by ${hookRunner} lies beside it: rebuild @graphiti-memory/agent-hooks`);

fs.rmSync(folder, { recursive: true, force: true });
fs.mkdirSync(path.join(folder, 'dist'), { recursive: true });
fs.mkdirSync(path.join(folder, 'bin'), { recursive: true });

const result = await esbuild.build({
  ...nodeBundleOptions(root),
  entryPoints: { bin: path.join(root, 'src/bin.ts'), 'emulator-thread': path.join(root, 'src/benchmark/emulator-thread.ts') },
  outdir: path.join(folder, 'dist'),
  splitting: true,
  format: 'esm',
  banner: { js: ESM_COMMONJS_BANNER },
});
// `vscode` is never loaded by the CLI (prompt-tsx requires it only inside VS Code).
assertSelfContained(result, 'the CLI bundle', 'bundle it, or make it a dependency of the packed package');

for (const name of ['hook-runner.cjs', ...runnerFiles]) fs.copyFileSync(path.join(path.dirname(hookRunner), name), path.join(folder, 'dist', name));
// The one-file MCP server `mcp install` copies into the state folder, as the harness's build made it.
const mcpServer = path.join(root, 'dist', 'mcp-server.mjs');
if (!fs.existsSync(mcpServer)) throw new Error(`${mcpServer} is missing: build the harness first (pnpm turbo run build --filter=@graphiti-memory/dev-harness)`);
fs.copyFileSync(mcpServer, path.join(folder, 'dist', 'mcp-server.mjs'));
fs.writeFileSync(path.join(folder, 'bin', 'graphiti-harness.js'), "#!/usr/bin/env node\nimport '../dist/bin.js';\n", { mode: 0o755 });
// The memory page's files (`graphiti-harness ui` finds them beside dist/).
fs.cpSync(path.join(root, 'memory-page'), path.join(folder, 'memory-page'), { recursive: true });
fs.copyFileSync(path.join(root, 'README.md'), path.join(folder, 'README.md'));
fs.copyFileSync(path.join(repository, 'LICENSE'), path.join(folder, 'LICENSE'));
if (fs.existsSync(path.join(release, 'CHANGELOG.md'))) fs.copyFileSync(path.join(release, 'CHANGELOG.md'), path.join(folder, 'CHANGELOG.md'));

const packed = {
  name: 'graphiti-harness',
  version: manifest.version,
  description: 'Graphiti Memory in a terminal and in coding agents: long-term memory for Claude Code and Copilot agent mode kept in a Graphiti knowledge graph.',
  license: manifest.license,
  type: 'module',
  bin: { 'graphiti-harness': './bin/graphiti-harness.js' },
  files: ['bin', 'dist', 'memory-page', 'README.md', 'LICENSE', 'CHANGELOG.md'],
  engines: manifest.engines,
  keywords: ['graphiti', 'memory', 'claude-code', 'copilot', 'knowledge-graph', 'mcp'],
  ...(manifest.repository === undefined ? {} : { repository: manifest.repository }),
};
fs.writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify(packed, null, 2)}\n`);

const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0);
console.log(`${path.relative(repository, folder)}: graphiti-harness@${packed.version}, bundle ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${Object.keys(result.metafile.outputs).length} files, runner ${runnerFiles.join(', ')}`);
const tarball = execFileSync('npm', ['pack', folder, '--pack-destination', out, '--silent'], { encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } }).trim().split('\n').at(-1);
console.log(path.join(out, tarball));
