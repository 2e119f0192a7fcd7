// `pnpm release:dry`: the release, rehearsed without touching this work tree. In a throwaway copy
// of it (tracked and new files, as they are now) `changeset version` writes the versions and
// CHANGELOGs the pending changesets ask for; each published package is packed from that copy with
// this tree's build, the CLI (`graphiti-harness`) through apps/dev-harness/scripts/pack-cli.mjs;
// every tarball's file list is checked (README, LICENSE, CHANGELOG and product code, nothing
// else; no workspace: ranges); then the CLI tarball is installed with npm into a throwaway prefix
// and run from a throwaway HOME, with this checkout on no path: `--version` and `demo`.
// Needs the packages built (the root script builds them first). Prints the tarballs' folder last.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repository = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
/** The packages that are published, by folder. */
const LIBRARIES = ['graphiti-client', 'memory-core', 'memory-node-storage', 'prompt-elements', 'agent-hooks'];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-memory-release-dry-'));
const copy = path.join(work, 'repository');
const out = path.join(work, 'packages');
fs.mkdirSync(out, { recursive: true });

const run = (file, args, options = {}) => execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });
const npmEnv = { ...process.env, npm_config_update_notifier: 'false' };
const problems = [];

// 1. The throwaway copy, versioned there.
const files = run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: repository }).split('\0').filter((file) => file !== '' && fs.existsSync(path.join(repository, file)));
for (const file of files) {
  fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
  fs.copyFileSync(path.join(repository, file), path.join(copy, file));
}
run('git', ['init', '--quiet'], { cwd: copy });
run('git', ['add', '--all'], { cwd: copy });
run('git', ['-c', 'user.name=release-dry', '-c', 'user.email=release-dry@localhost', 'commit', '--quiet', '--no-verify', '-m', 'release:dry base'], { cwd: copy });
run(process.execPath, [path.join(repository, 'node_modules', '@changesets', 'cli', 'bin.js'), 'version'], { cwd: copy });
const versionOf = (folder) => JSON.parse(fs.readFileSync(path.join(copy, folder, 'package.json'), 'utf8')).version;
console.log(`versioned in ${copy}: ${[...LIBRARIES.map((name) => `packages/${name}`), 'apps/dev-harness'].map((folder) => `${path.basename(folder)} ${versionOf(folder)}`).join(', ')}`);

// 2. Each library packed from the copy's manifest with this tree's build. `workspace:` ranges are
// written out as pnpm's publish writes them (`workspace:^` → `^<version>`), from the copy's versions:
// the copy has no node_modules for pnpm to read them from.
const versions = new Map();
for (const group of ['packages', 'apps', 'tooling']) {
  for (const name of fs.readdirSync(path.join(copy, group))) {
    const file = path.join(copy, group, name, 'package.json');
    if (fs.existsSync(file)) versions.set(JSON.parse(fs.readFileSync(file, 'utf8')).name, JSON.parse(fs.readFileSync(file, 'utf8')).version);
  }
}
for (const name of LIBRARIES) {
  const folder = path.join(copy, 'packages', name);
  fs.cpSync(path.join(repository, 'packages', name, 'dist'), path.join(folder, 'dist'), { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
      const workspace = /^workspace:([\^~*]?)$/.exec(range);
      if (workspace === null) continue;
      if (!versions.has(dependency)) throw new Error(`${manifest.name}: ${dependency} is no workspace package`);
      manifest[field][dependency] = `${workspace[1] === '*' ? '' : workspace[1]}${versions.get(dependency)}`;
    }
  }
  fs.writeFileSync(path.join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  run('npm', ['pack', '--silent', '--pack-destination', out], { cwd: folder, env: npmEnv });
}
const cliOutput = run(process.execPath, [path.join(repository, 'apps', 'dev-harness', 'scripts', 'pack-cli.mjs'), '--out', out, '--release-from', path.join(copy, 'apps', 'dev-harness')], { cwd: repository });
const cliTarball = cliOutput.trim().split('\n').at(-1);

// 3. Every tarball: README, LICENSE, CHANGELOG, its manifest, and product code only (the CLI's: its bundle, the MCP server's self-contained copy and the memory page's three files).
const tarballs = fs.readdirSync(out).filter((name) => name.endsWith('.tgz'));
for (const tarball of tarballs) {
  const entries = run('tar', ['-tzf', path.join(out, tarball)]).split('\n').filter((entry) => entry !== '' && !entry.endsWith('/'));
  const cli = tarball.startsWith('graphiti-harness-');
  for (const required of ['package/package.json', 'package/README.md', 'package/LICENSE', 'package/CHANGELOG.md']) {
    if (!entries.includes(required)) problems.push(`${tarball}: ${required.slice('package/'.length)} is missing`);
  }
  const allowed = cli ? /^package\/(bin\/graphiti-harness\.js|dist\/[^/]+\.(js|cjs|mjs)|memory-page\/memory-page\.(html|js|css))$/ : /^package\/dist\/.+\.(js|cjs|d\.ts)$/;
  const extra = entries.filter((entry) => !/^package\/(package\.json|README\.md|LICENSE|CHANGELOG\.md)$/.test(entry) && (!allowed.test(entry) || /\.test\.|test-support|\.map$/.test(entry)));
  if (extra.length > 0) problems.push(`${tarball}: not product code: ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ` and ${extra.length - 5} more` : ''}`);
  const manifest = JSON.parse(run('tar', ['-xzOf', path.join(out, tarball), 'package/package.json']));
  if (manifest.private === true) problems.push(`${tarball}: package.json says private`);
  const ranges = Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies }).filter(([, range]) => String(range).startsWith('workspace:'));
  if (ranges.length > 0) problems.push(`${tarball}: workspace ranges left: ${ranges.map(([name]) => name).join(', ')}`);
  console.log(`${tarball}: ${entries.length} files`);
}
if (tarballs.length !== LIBRARIES.length + 1) problems.push(`expected ${LIBRARIES.length + 1} tarballs in ${out}, found ${tarballs.length}: ${tarballs.join(', ')}`);

// 4. The CLI as a user installs it: npm alone, a throwaway prefix and HOME, the checkout on no path.
const prefix = path.join(work, 'prefix');
const home = path.join(work, 'home');
fs.mkdirSync(home, { recursive: true });
const userEnv = { PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter), HOME: home, NO_COLOR: '1', LANG: 'C.UTF-8' };
run('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', cliTarball], {
  cwd: home,
  env: { ...userEnv, npm_config_cache: path.join(work, 'npm-cache'), npm_config_update_notifier: 'false' },
});
const binary = path.join(prefix, 'bin', 'graphiti-harness');
const version = run(binary, ['--version'], { cwd: home, env: userEnv }).trim();
if (version !== versionOf('apps/dev-harness')) problems.push(`graphiti-harness --version printed ${JSON.stringify(version)}, expected ${versionOf('apps/dev-harness')}`);
console.log(`${binary} --version: ${version}`);
try {
  const demo = run(binary, ['demo'], { cwd: home, env: userEnv });
  if (!demo.includes('Demo passed.')) problems.push('graphiti-harness demo did not pass');
  else console.log(`${binary} demo: passed`);
} catch (error) {
  problems.push(`graphiti-harness demo failed: ${error instanceof Error ? error.message : String(error)}`);
}

fs.rmSync(copy, { recursive: true, force: true });
fs.rmSync(prefix, { recursive: true, force: true });
if (problems.length > 0) {
  console.error(`release:dry failed:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  process.exit(1);
}
console.log(out);
