// What the hook e2e tests share: the built runner, a temporary HOME per test, and stopping the hook
// servers (of one or more runner builds) a test started. A runner starts its server detached after
// answering, so one may still be coming up when the test ends: wait a little for one before
// concluding there is none, and stop until none answer.
import { execFile, spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOOK_SERVER_PROTOCOL, pingHookServer, runningHookServers } from '@graphiti-memory/agent-hooks';

export async function stopHookServer(env: NodeJS.ProcessEnv, settleMs = 2_000): Promise<void> {
  const deadline = Date.now() + settleMs;
  let stopped = 0;
  for (let attempt = 0; attempt < 100; attempt++) {
    const servers = await runningHookServers(env);
    if (servers.length === 0 && (stopped > 0 || Date.now() > deadline)) return;
    for (const server of servers) {
      await pingHookServer(server, server.build, HOOK_SERVER_PROTOCOL, 'stop', 200);
      stopped++;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Builds the hooks package and the harness when the runner or the CLI is missing (a test run without turbo's build first). */
export async function ensureBuilt(packageFolder: string, runner: string): Promise<void> {
  const build = (cwd: string) => new Promise<void>((resolve, reject) => execFile('pnpm', ['run', 'build'], { cwd }, (error) => (error ? reject(error) : resolve())));
  // The runner lies in <agent-hooks>/dist/.
  if (!existsSync(runner)) await build(path.dirname(path.dirname(runner)));
  if (!existsSync(path.join(packageFolder, 'dist', 'bin.js'))) await build(packageFolder);
}

export interface HookTestHome {
  readonly root: string;
  readonly home: string;
  readonly stateDir: string;
  readonly workspace: string;
  /** The environment hooks run in: this HOME and config folder, never the user's. */
  readonly env: NodeJS.ProcessEnv;
}

/** A fresh temporary folder holding a HOME, a workspace and (once used) a state and a config folder. */
export async function temporaryHookHome(prefix: string): Promise<HookTestHome> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'repo');
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(workspace, { recursive: true });
  const env = { PATH: process.env['PATH'], HOME: home, USERPROFILE: home, GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), NO_COLOR: '1' };
  return { root, home, stateDir: path.join(root, 'state'), workspace, env };
}

export interface ProcessRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` to its end with `stdin`, in `cwd`, with exactly `env`. */
export function runProcess(command: string, args: readonly string[], stdin: string, env: NodeJS.ProcessEnv, cwd: string): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
