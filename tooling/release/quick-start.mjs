// Runs the README's quick start as a new user would, so the README cannot drift from what works:
// every command of the block between `<!-- quick-start -->` and `<!-- /quick-start -->`, in order,
// from the repository's root, in a throwaway HOME (with Claude Code "installed": a ~/.claude folder)
// and a throwaway npm prefix on PATH. Two substitutions, both said as they happen:
//   - `docker compose … up` (no Docker on CI): the Graphiti emulator is started on the port the
//     README's endpoint names. The emulator is not Graphiti.
//   - `graphiti-harness setup` without `--yes` would ask a question on a terminal: `--yes` is added.
// Afterwards it checks what the quick start promises: Claude Code's hook file runs a runner copied
// into the data folder (not a file of this checkout), and that runner exists.
//
// Usage: node tooling/release/quick-start.mjs (pnpm test:quick-start)        (exit 0 when every step worked)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repository = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const log = (message) => console.log(`[quick-start] ${message}`);

function quickStartCommands() {
  const readme = fs.readFileSync(path.join(repository, 'README.md'), 'utf8');
  const block = /<!-- quick-start -->\s*```sh\n([\s\S]*?)```\s*<!-- \/quick-start -->/.exec(readme)?.[1];
  if (block === undefined) throw new Error('README.md has no ```sh block between <!-- quick-start --> and <!-- /quick-start -->.');
  const commands = [];
  let pending = '';
  for (const raw of block.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    pending += line.endsWith('\\') ? `${line.slice(0, -1)} ` : line;
    if (!line.endsWith('\\')) {
      commands.push(pending.replace(/\s+#.*$/, '').trim());
      pending = '';
    }
  }
  if (commands.length === 0) throw new Error('The README quick start block holds no command.');
  return commands;
}

const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-quick-start-'));
const home = path.join(sandbox, 'home');
const prefix = path.join(sandbox, 'prefix');
fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
fs.mkdirSync(prefix, { recursive: true });
const realHome = os.homedir();
const pnpmStore = spawnSync('npx', ['--yes', 'pnpm@10.34.8', 'store', 'path'], { cwd: repository, encoding: 'utf8' }).stdout.trim();
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: path.join(home, '.config'),
  XDG_DATA_HOME: path.join(home, '.local', 'share'),
  XDG_STATE_HOME: path.join(home, '.local', 'state'),
  XDG_CACHE_HOME: path.join(home, '.cache'),
  // The downloads a user already has stay where they are (npm's cache, pnpm's store): only what
  // the quick start writes goes to the throwaway HOME.
  npm_config_cache: process.env.npm_config_cache ?? path.join(realHome, '.npm'),
  ...(pnpmStore === '' ? {} : { npm_config_store_dir: pnpmStore }),
  npm_config_prefix: prefix,
  npm_config_update_notifier: 'false',
  PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
};
delete env.GRAPHITI_MEMORY_STATE_DIR;
delete env.GRAPHITI_URL;

let emulator;
function startEmulator(port) {
  const bin = path.join(repository, 'tooling', 'graphiti-emulator', 'bin', 'graphiti-emulator.js');
  log(`no Docker here: the Graphiti emulator stands in on 127.0.0.1:${port} (it is NOT Graphiti)`);
  emulator = spawn(process.execPath, [bin, '--port', String(port), '--quiet'], { cwd: repository, env, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    emulator.stdout.on('data', (chunk) => {
      output += chunk;
      if (/listening on/.test(output)) resolve();
    });
    emulator.on('exit', (code) => reject(new Error(`the emulator exited (${code}) before listening: ${output}`)));
  });
}

function run(command) {
  log(`$ ${command}`);
  const result = spawnSync('bash', ['-euo', 'pipefail', '-c', command], { cwd: repository, env, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`"${command}" exited with ${result.status ?? result.signal}`);
}

try {
  const commands = quickStartCommands();
  const endpoint = commands.join('\n').match(/--endpoint\s+(\S+)/)?.[1];
  for (const command of commands) {
    if (/\bdocker compose\b/.test(command)) {
      const port = Number(new URL(endpoint ?? 'http://127.0.0.1:8000').port || 80);
      await startEmulator(port);
      continue;
    }
    if (/\bgraphiti-harness setup\b/.test(command) && !/--yes\b|\s-y\b/.test(command)) {
      log('setup would ask on a terminal: answering with --yes');
      run(`${command} --yes`);
      continue;
    }
    run(command);
  }
  const settings = JSON.parse(fs.readFileSync(path.join(home, '.claude', 'settings.json'), 'utf8'));
  const hookCommands = Object.values(settings.hooks ?? {}).flatMap((entries) => entries.flatMap((entry) => entry.hooks ?? []).map((hook) => hook.command ?? ''));
  if (hookCommands.length === 0) throw new Error('setup installed no Claude Code hook into ~/.claude/settings.json');
  for (const hookCommand of hookCommands) {
    if (hookCommand.includes(repository)) throw new Error(`a hook runs a file of the checkout: ${hookCommand}`);
    const runner = /"([^"]*hook-runner\.cjs)"|(\S*hook-runner\.cjs)/.exec(hookCommand);
    const runnerPath = runner?.[1] ?? runner?.[2];
    if (runnerPath === undefined || !fs.existsSync(runnerPath)) throw new Error(`a hook names no runner that exists: ${hookCommand}`);
    if (!runnerPath.startsWith(home)) throw new Error(`the runner is not in the user's data folder: ${runnerPath}`);
  }
  log(`ok: ${commands.length} commands; Claude Code's ${hookCommands.length} hooks run the runner copied into the data folder`);
} catch (error) {
  console.error(`[quick-start] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  emulator?.kill('SIGTERM');
  fs.rmSync(sandbox, { recursive: true, force: true });
}
