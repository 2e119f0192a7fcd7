// Issue 20, "no re-post of what was delivered in any fault order", with real processes: a process
// frozen (SIGSTOP, as a machine under load can starve one) longer than the lock stale time keeps
// its locks, so no other process adopts its journal or admits the messages it is admitting; they
// would be sent twice. A process that died gives its locks up at once.
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { entry, temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { tryLock } from '../outbox/file-locks.js';
import { FileOutbox } from '../outbox/file-outbox.js';

const packageDirectory = path.resolve(import.meta.dirname, '..', '..');
const COUNT = 5;
const STALE_MS = 2_000;

interface FrozenChild {
  readonly child: ChildProcess;
  event(name: string): Promise<Record<string, unknown>>;
  send(line: string): void;
}

const children: ChildProcess[] = [];
const opened: FileOutbox[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGCONT');
    child.kill('SIGKILL');
  }
  for (const outbox of opened.splice(0)) await outbox.close().catch(() => undefined);
});

function spawnFrozenChild(directory: string, mode: 'journal' | 'admission'): FrozenChild {
  const child = spawn(process.execPath, ['--conditions=@graphiti-memory/source', '--import', 'tsx', path.join(packageDirectory, 'src', 'chaos', 'frozen-holder.test-child.ts')], {
    cwd: packageDirectory,
    env: { ...process.env, TSX_TSCONFIG_PATH: path.join(packageDirectory, 'tsconfig.tsx.json'), FROZEN_DIRECTORY: directory, FROZEN_MODE: mode, FROZEN_COUNT: String(COUNT) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  const events: Record<string, unknown>[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2_000)));
  let buffered = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) events.push(JSON.parse(line) as Record<string, unknown>);
  });
  return {
    child,
    send: (line) => child.stdin?.write(`${line}\n`),
    event: async (name) => {
      const seen = events.length;
      for (let waited = 0; waited < 30_000; waited += 20) {
        const found = events.slice(name === 'stats' ? seen : 0).find((event) => event.event === name);
        if (found !== undefined) return found;
        const failed = events.find((event) => event.event === 'error');
        if (failed !== undefined || child.exitCode !== null) throw new Error(`frozen-holder child ended: ${JSON.stringify(failed)} ${stderr}`);
        await sleep(20);
      }
      throw new Error(`frozen-holder child never reported ${name}: ${stderr}`);
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function openOutbox(directory: string): Promise<FileOutbox> {
  const outbox = await FileOutbox.open({ directory, staleLockMs: STALE_MS, lockUpdateMs: 1_000, commitIntervalMs: 5 });
  opened.push(outbox);
  return outbox;
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => child.once('exit', resolve));
}

describe('a process frozen past the lock stale time (SIGSTOP, then SIGCONT)', { timeout: 60_000 }, () => {
  it('keeps its journal: no other process adopts (and sends) its records while it lives; once it dies they are adopted at once', async () => {
    const directory = await temporaryDirectory('frozen-journal-');
    const holder = spawnFrozenChild(directory, 'journal');
    expect(await holder.event('ready')).toMatchObject({ accepted: COUNT });
    holder.child.kill('SIGSTOP');
    await sleep(STALE_MS * 2);
    const other = await openOutbox(directory);
    await other.adoptOrphans();
    // The frozen process still has its records and will send them: a copy here would be sent twice.
    expect(other.recovery()).toMatchObject({ adoptedJournals: 0, adoptedRecords: 0 });
    expect(other.size()).toBe(0);
    expect(await other.acquireDrain()).toBe(false);
    holder.child.kill('SIGCONT');
    holder.send('stats');
    expect(await holder.event('stats')).toMatchObject({ fenced: false, size: COUNT, holds: true });

    holder.child.kill('SIGKILL');
    await exited(holder.child);
    const started = Date.now();
    await other.adoptOrphans();
    expect(other.recovery()).toMatchObject({ adoptedJournals: 1, adoptedRecords: COUNT });
    // A dead owner's lock is taken without waiting for it to turn stale.
    expect(Date.now() - started).toBeLessThan(STALE_MS);
    expect(await other.acquireDrain()).toBe(true);
  });

  it('keeps the admission lock: messages it is admitting are not admitted again by another process meanwhile', async () => {
    const directory = await temporaryDirectory('frozen-admission-');
    const holder = spawnFrozenChild(directory, 'admission');
    await holder.event('locked');
    holder.child.kill('SIGSTOP');
    await sleep(STALE_MS * 2);
    const other = await openOutbox(directory);
    const messages = Array.from({ length: COUNT }, (_, index) => entry(index));
    let settled = false;
    const admitting = other.admit(messages, other.deliveryLedger).finally(() => (settled = true));
    await sleep(1_000);
    expect(settled).toBe(false);
    holder.child.kill('SIGCONT');
    holder.send('go');
    expect(await holder.event('admitted')).toMatchObject({ size: COUNT });
    // Once the holder released the lock, the other process reads what it accepted: nothing twice.
    expect(await admitting).toMatchObject({ accepted: 0, duplicates: COUNT });
    expect(other.size()).toBe(0);
  });
});

describe('the lock of a dead process', () => {
  it('is taken over by exactly one of many processes that find it at once', async () => {
    const directory = await temporaryDirectory('dead-lock-');
    const dead = spawn(process.execPath, ['-e', '0']);
    await exited(dead);
    const deadPid = dead.pid ?? 999_999;
    for (let round = 0; round < 20; round++) {
      const target = path.join(directory, `target-${round}`);
      await fs.mkdir(`${target}.lock`);
      await fs.writeFile(path.join(`${target}.lock`, 'owner'), JSON.stringify({ host: os.hostname(), pid: deadPid, nonce: `dead-${round}` }));
      // Old enough to be stale by age too.
      const old = new Date(Date.now() - 60_000);
      await fs.utimes(`${target}.lock`, old, old);
      const locks = await Promise.all(Array.from({ length: 8 }, () => tryLock(target, { staleMs: STALE_MS, updateMs: 1_000 }, () => {})));
      const winners = locks.filter((lock) => lock !== undefined);
      expect(winners).toHaveLength(1);
      for (const lock of winners) expect(await lock.verify()).toBe(true);
      await Promise.all(winners.map((lock) => lock.release()));
    }
  });
});
