// Spawns a chaos child (src/chaos/chaos.test-child.ts) as a real process sharing an outbox folder,
// and collects the JSON lines it reports. Used by the chaos tests.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const packageDirectory = path.resolve(import.meta.dirname, '..');
const childScript = path.join(packageDirectory, 'src', 'chaos', 'chaos.test-child.ts');

export interface ChaosChildRun {
  readonly child: ChildProcess;
  readonly events: Record<string, unknown>[];
  readonly exited: Promise<number | null>;
  stderr: string;
  /** Resolves with the first reported event named `name`. */
  event(name: string): Promise<Record<string, unknown>>;
}

export interface ChaosChildOptions {
  readonly directory: string;
  readonly url: string;
  readonly total: number;
  readonly groups?: number;
}

export function spawnChaosChild(options: ChaosChildOptions): ChaosChildRun {
  const child = spawn(process.execPath, ['--conditions=@graphiti-memory/source', '--import', 'tsx', childScript], {
    cwd: packageDirectory,
    env: {
      ...process.env,
      TSX_TSCONFIG_PATH: path.join(packageDirectory, 'tsconfig.tsx.json'),
      CHAOS_DIRECTORY: options.directory,
      CHAOS_URL: options.url,
      CHAOS_TOTAL: String(options.total),
      CHAOS_GROUPS: String(options.groups ?? 4),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const waiting: { name: string; resolve: (event: Record<string, unknown>) => void }[] = [];
  const run: ChaosChildRun = {
    child,
    events: [],
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    event: (name) => {
      const seen = run.events.find((event) => event.event === name);
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ name, resolve }));
    },
  };
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue; // Not a report line.
      }
      run.events.push(event);
      for (const waiter of waiting.splice(0)) {
        if (waiter.name === event.event) waiter.resolve(event);
        else waiting.push(waiter);
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    run.stderr = (run.stderr + chunk.toString('utf8')).slice(-4_000);
  });
  return run;
}

/** Which of the children's `total` messages are not among `episodeNames`, and which are more than once. */
export function exactlyOnce(episodeNames: readonly string[], total: number): { missing: number[]; duplicated: number[] } {
  const counts = new Map<string, number>();
  for (const name of episodeNames) counts.set(name, (counts.get(name) ?? 0) + 1);
  const missing: number[] = [];
  const duplicated: number[] = [];
  for (let index = 0; index < total; index++) {
    const count = counts.get(`chaos.turn.${index}.user`) ?? 0;
    if (count === 0) missing.push(index);
    if (count > 1) duplicated.push(index);
  }
  return { missing, duplicated };
}
