// `pnpm test:ui`'s setup: what the memory page's Chromium test needs, installed once per machine the
// way the VS Code e2e setup installs it (apps/vscode-extension/e2e/setup.mjs: the same pins, the same
// cache folder, so a machine that ran one has what the other needs): Debian's chromium, and
// playwright-core (driver only; it never downloads a browser) from the npm registry.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PLAYWRIGHT_VERSION = '1.64.1';
const cache = process.env.GRAPHITI_E2E_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'graphiti-memory-e2e');

function fail(message) {
  process.stderr.write(`[memory page e2e setup] ${message}\n`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...options });
  if (result.status !== 0) fail(`'${command} ${args.join(' ')}' failed (exit ${result.status ?? result.signal}):\n${`${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n')}`);
}

if (!['/usr/bin/chromium', '/usr/bin/chromium-browser'].some((candidate) => fs.existsSync(candidate))) {
  if (spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status !== 0) fail('chromium is missing and there is no apt-get here: install chromium with your package manager (it must be /usr/bin/chromium).');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = (args) => (asRoot ? run('apt-get', args, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }) : run('sudo', ['-n', 'apt-get', ...args], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }));
  process.stderr.write('[memory page e2e setup] installing chromium with apt-get\n');
  apt(['update']);
  apt(['install', '-y', '--no-install-recommends', 'chromium']);
}

const folder = path.join(cache, `playwright-${PLAYWRIGHT_VERSION}`);
if (!fs.existsSync(path.join(folder, 'node_modules', 'playwright-core', 'package.json'))) {
  fs.mkdirSync(folder, { recursive: true });
  if (!fs.existsSync(path.join(folder, 'package.json'))) fs.writeFileSync(path.join(folder, 'package.json'), '{ "name": "graphiti-memory-e2e-cache", "private": true }\n');
  process.stderr.write(`[memory page e2e setup] installing playwright-core@${PLAYWRIGHT_VERSION} into ${folder}\n`);
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && !name.startsWith('PNPM_')));
  run('npm', ['install', '--no-audit', '--no-fund', '--no-save', `playwright-core@${PLAYWRIGHT_VERSION}`], { cwd: folder, env: { ...env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
}
