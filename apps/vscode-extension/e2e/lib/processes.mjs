// Every process the e2e run starts is tracked by process id and stopped at the end, even when a
// test fails or the run is interrupted: VS Code's extension hosts otherwise linger for hours.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

export class ProcessGroup {
  #children = new Set();
  #stopping = false;

  constructor() {
    const stopAndExit = (signal) => {
      this.stopAll();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('SIGINT', stopAndExit);
    process.once('SIGTERM', stopAndExit);
    process.once('exit', () => this.stopAll());
  }

  /** Starts a process in its own process group, so stopping it stops its children too. */
  start(name, command, args, options = {}) {
    const child = spawn(command, args, { ...options, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.name = name;
    child.output = '';
    const keep = (chunk) => {
      child.output = (child.output + chunk.toString()).slice(-20_000);
      if (process.env.GRAPHITI_E2E_VERBOSE) process.stderr.write(`[${name}] ${chunk}`);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    this.#children.add(child);
    child.once('exit', () => this.#children.delete(child));
    return child;
  }

  stopAll() {
    if (this.#stopping) return;
    this.#stopping = true;
    for (const child of this.#children) {
      for (const signal of ['SIGTERM', 'SIGKILL']) {
        try {
          process.kill(-child.pid, signal);
        } catch {
          // already gone
        }
      }
    }
    this.#children.clear();
    this.#stopping = false;
  }
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function waitForPort(port, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child?.exitCode != null) throw new Error(`${child.name} exited (${child.exitCode}) before listening:\n${child.output}`);
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Nothing listened on 127.0.0.1:${port} within ${timeoutMs} ms.${child ? `\n${child.output}` : ''}`);
}

/**
 * Stops, by process id, every process whose command line names `folder` (a session's unique
 * temporary folder): the agent hook server a hook runner started detached, in its own process
 * group, outlives the VS Code server otherwise. Linux only (reads /proc), as the setup is.
 * @returns {string[]} what was signalled: each process id with its program and flags (no paths)
 */
export function stopProcessesNaming(folder) {
  const stopped = [];
  for (const name of fs.readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let commandLine;
    try {
      commandLine = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // gone meanwhile, or not ours to read
    }
    if (!commandLine.includes(folder)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      const words = commandLine.split('\0').filter(Boolean).slice(1).map((word) => (word.startsWith('-') ? word : word.split('/').at(-1)));
      stopped.push(`${pid} (${words.join(' ').slice(0, 80)})`);
    } catch {
      // already gone
    }
  }
  return stopped;
}
