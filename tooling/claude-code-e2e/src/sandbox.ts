// One run's throwaway world: a HOME (with XDG folders, the config and state folders of Graphiti
// Memory inside it), a git repository as the workspace, and the processes started in it. Every
// process gets a run marker in its environment, so what the hooks start in the background (the hook
// server, the drainer) can be found by pid afterwards and ended — by id, never by name.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const RUN_MARKER = 'GRAPHITI_CLAUDE_E2E_RUN';

export interface CommandResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly ms: number;
}

export interface CommandOptions {
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly extraEnvironment?: Readonly<Record<string, string>>;
}

export class Sandbox {
  readonly runId = randomUUID();
  readonly home: string;
  readonly workspace: string;
  readonly configDirectory: string;
  readonly stateDirectory: string;
  readonly artifacts: string;

  private constructor(readonly root: string) {
    this.home = path.join(root, 'home');
    this.workspace = path.join(root, 'deploy-demo');
    this.configDirectory = path.join(this.home, '.config', 'graphiti-memory');
    this.stateDirectory = path.join(this.home, '.local', 'share', 'graphiti-memory-state');
    this.artifacts = path.join(root, 'artifacts');
  }

  /** A fresh temporary world with a git repository (with a remote: it names the workspace scope). */
  static async create(label: string, prefix = 'graphiti-claude-e2e'): Promise<Sandbox> {
    const sandbox = new Sandbox(fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-${label}-`)));
    for (const directory of [sandbox.home, sandbox.workspace, sandbox.artifacts, path.join(sandbox.home, 'run')]) {
      fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
    }
    fs.writeFileSync(path.join(sandbox.workspace, 'README.md'), '# deploy-demo\n');
    for (const args of [
      ['init', '-q', '-b', 'main'],
      ['remote', 'add', 'origin', 'https://example.invalid/acme/deploy-demo.git'],
      ['add', 'README.md'],
      ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.invalid', 'commit', '-q', '-m', 'init'],
    ]) {
      const result = await sandbox.run('git', args, { cwd: sandbox.workspace, timeoutMs: 10_000 });
      if (result.status !== 0) throw new Error(`'git ${args.join(' ')}' failed in ${sandbox.workspace}: ${result.stderr.trim()}`);
    }
    return sandbox;
  }

  /**
   * The environment of every process of the run: nothing of the caller's HOME, keys or agent
   * settings, only PATH and the locale from outside.
   */
  environment(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
    const keep = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'SystemRoot'];
    const base = Object.fromEntries(keep.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name]]])));
    return {
      ...base,
      HOME: this.home,
      USERPROFILE: this.home,
      TMPDIR: path.join(this.root, 'tmp'),
      XDG_CONFIG_HOME: path.join(this.home, '.config'),
      XDG_DATA_HOME: path.join(this.home, '.local', 'share'),
      XDG_STATE_HOME: path.join(this.home, '.local', 'state'),
      XDG_CACHE_HOME: path.join(this.home, '.cache'),
      XDG_RUNTIME_DIR: path.join(this.home, 'run'),
      GRAPHITI_MEMORY_CONFIG_DIR: this.configDirectory,
      GRAPHITI_MEMORY_STATE_DIR: this.stateDirectory,
      [RUN_MARKER]: this.runId,
      ...extra,
    };
  }

  /** Runs a command to its end, or kills its process group at `timeoutMs`. Never rejects. */
  run(command: string, args: readonly string[], options: CommandOptions): Promise<CommandResult> {
    fs.mkdirSync(path.join(this.root, 'tmp'), { recursive: true });
    const started = Date.now();
    return new Promise((resolve) => {
      // Its own process group, so a timeout ends the command and whatever it started in the foreground.
      const child = spawn(command, args, {
        cwd: options.cwd,
        env: this.environment(options.extraEnvironment),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid);
      }, options.timeoutMs);
      const finish = (status: number | null, signal: NodeJS.Signals | null, error?: Error): void => {
        clearTimeout(timer);
        resolve({ status, signal, stdout, stderr: error ? `${stderr}${error.message}` : stderr, timedOut, ms: Date.now() - started });
      };
      child.once('error', (error) => finish(null, null, error));
      child.once('close', (status, signal) => finish(status, signal));
    });
  }

  /** Pids of live processes carrying this run's marker (Linux: read from /proc; elsewhere none are found). */
  processes(): number[] {
    if (process.platform !== 'linux') return [];
    const marker = `${RUN_MARKER}=${this.runId}`;
    const found: number[] = [];
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const environ = fs.readFileSync(`/proc/${entry}/environ`, 'latin1');
        if (environ.split('\0').includes(marker) && !isZombie(entry)) found.push(Number(entry));
      } catch {
        // Gone meanwhile, or not ours to read.
      }
    }
    return found;
  }

  /** Ends every process of the run (SIGTERM, then SIGKILL after a grace period). Returns what it ended. */
  async endProcesses(graceMs = 2_000): Promise<number[]> {
    const pids = this.processes();
    for (const pid of pids) signal(pid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && this.processes().length > 0) await sleep(100);
    for (const pid of this.processes()) signal(pid, 'SIGKILL');
    return pids;
  }

  remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

function isZombie(pid: string): boolean {
  try {
    // The state is the first field after the parenthesised command name.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    signal(pid, 'SIGKILL');
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` every `intervalMs` until it returns a value other than `undefined`, or `timeoutMs` passes. */
export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs: number, intervalMs = 100): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) return undefined;
    await sleep(intervalMs);
  }
}
