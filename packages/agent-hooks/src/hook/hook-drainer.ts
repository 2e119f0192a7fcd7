// The background drainer: started detached by Stop / SessionEnd (and by a SessionStart whose tier
// is stale), it delivers and confirms what hooks put into the durable outbox, then refreshes the
// workspace's local tier. One per state folder: a second one finds the lock held and leaves at
// once (the running one adopts the newer journals); the outbox's own drain lock still guards sends.
// It leaves without sending as soon as memory is closed for its workspace and endpoint (the memory
// switches or the config's consent, checked before each round and every WATCH_MS) or a revoke,
// an uninstall or a forget asks it to (SIGTERM, found through its info file: stopDrainer); what is
// still queued stays in the outbox, on disk.
import { spawn } from 'node:child_process';
import os from 'node:os';
import lockfile from 'proper-lockfile';
import { makePrivateFolder, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { removeDrainerInfo, writeDrainerInfo } from './drainer-info.js';
import type { HookContext } from './hook-context.js';
import { adoptHookJournals, openHookMemory, type HookMemory } from './hook-memory.js';
import { waitForOpenDigests } from './digest-wait.js';
import { NullLogger } from './null-logger.js';

export interface DrainerLaunch {
  readonly nodePath: string;
  readonly scriptPath: string;
  /** Arguments before the drainer's own (`['hook']` for the harness binary). */
  readonly leadingArguments: readonly string[];
}

/** How long one drainer keeps waiting for confirmation before it leaves the rest to the next. */
const DRAIN_BOUND_MS = 180_000;
const REQUEST_TIMEOUT_MS = 30_000;
const LOCK_STALE_MS = 30_000;
const ROUNDS = 3;
/** How often a running drain checks that memory is still open for it. */
const WATCH_MS = 250;

/** Why memory is closed now for the drainer's workspace and endpoint (`undefined`: still open). */
export type MemoryStillOpen = () => Promise<{ readonly outcome: string; readonly detail?: string } | undefined>;

/** Starts the drainer detached from this process (and its stdio), so the hook can exit at once. */
export function spawnDrainer(launch: DrainerLaunch, context: HookContext, env: NodeJS.ProcessEnv): void {
  const child = spawn(
    launch.nodePath,
    [
      launch.scriptPath,
      ...launch.leadingArguments,
      '--drain',
      '--endpoint',
      context.endpoint,
      '--state-dir',
      context.stateDirectory,
      '--workspace',
      context.workspaceFolder,
    ],
    // cwd: a folder that surely exists (the state folder may not yet).
    { detached: true, stdio: 'ignore', env, windowsHide: true, cwd: os.tmpdir() },
  );
  child.on('error', () => {});
  child.unref();
}

/** Runs the drain; returns its outcome. Never throws. */
export async function runDrainer(context: HookContext, stillOpen: MemoryStillOpen): Promise<{ outcome: string; detail?: string }> {
  const files = sharedStateFiles(context.stateDirectory);
  await makePrivateFolder(files.drainerLock);
  let release: (() => Promise<void>) | undefined;
  try {
    release = await lockfile.lock(files.drainerLock, { stale: LOCK_STALE_MS, update: LOCK_STALE_MS / 3, retries: 0, realpath: false });
  } catch {
    return { outcome: 'drainer-running' };
  }
  const leave = new AbortController();
  let closedBy: { readonly outcome: string; readonly detail?: string } | undefined;
  const onStopRequest = (): void => leave.abort();
  process.once('SIGTERM', onStopRequest);
  let watching = false;
  const watcher = setInterval(() => {
    if (watching || leave.signal.aborted) return;
    watching = true;
    void stillOpen()
      .then((closed) => {
        if (closed === undefined) return;
        closedBy = closed;
        leave.abort();
      })
      .catch(() => undefined)
      .finally(() => (watching = false));
  }, WATCH_MS);
  let memory: HookMemory | undefined;
  try {
    await writeDrainerInfo(files.drainerInfo, { pid: process.pid, since: new Date().toISOString() });
    let confirmed = 0;
    let pending = 0;
    let owed = 0;
    for (let round = 0; round < ROUNDS && !leave.signal.aborted; round++) {
      closedBy = await stillOpen();
      if (closedBy !== undefined) break;
      memory ??= await openHookMemory({ ...context, requestTimeoutMs: REQUEST_TIMEOUT_MS, durable: true, logger: new NullLogger() });
      // Deletes a forget owes (it ran while Graphiti was unreachable) go first, even with nothing queued.
      owed = await carryOutOwedDeletes(memory, leave.signal);
      await adoptHookJournals(memory);
      memory.ingestion?.start();
      const result = await memory.ingestion?.waitForConfirmation({ timeoutMs: DRAIN_BOUND_MS / ROUNDS, signal: leave.signal });
      confirmed += result?.confirmed ?? 0;
      pending = result?.pending ?? 0;
      if (pending === 0 && (await memory.outbox?.otherJournalCount()) === 0) break;
    }
    if (memory !== undefined && closedBy === undefined && !leave.signal.aborted) {
      // Session digests still open (a Stop without SessionEnd): stay until they close on idle.
      const digests = await waitForOpenDigests(context, memory, leave.signal);
      confirmed += digests.confirmed;
      if (digests.confirmed > 0 || digests.pending > 0) pending = digests.pending;
    }
    if (closedBy !== undefined || leave.signal.aborted) {
      // Stop sending now; what is queued stays in the outbox (released with the journal at close).
      await memory?.ingestion?.stop();
      return closedBy ?? { outcome: 'stopped', detail: 'asked to stop; queued messages stay in the outbox' };
    }
    if (memory !== undefined) await refreshWorkspaceTier(memory);
    const owedDetail = owed > 0 ? `, ${owed} group deletes still owed` : '';
    return { outcome: pending === 0 ? 'delivered' : 'pending', detail: `${confirmed} confirmed, ${pending} pending${owedDetail}` };
  } finally {
    clearInterval(watcher);
    process.off('SIGTERM', onStopRequest);
    await memory?.close().catch(() => undefined);
    await removeDrainerInfo(files.drainerInfo, process.pid).catch(() => undefined);
    await release().catch(() => undefined);
  }
}

/** Carries out the deletes forgets owe; returns how many are still owed. Never throws. */
async function carryOutOwedDeletes(memory: HookMemory, signal: AbortSignal): Promise<number> {
  try {
    const owed = (await memory.forget?.owed()) ?? [];
    if (owed.length === 0) return 0;
    const result = await memory.forget?.retryOwed({ timeoutMs: REQUEST_TIMEOUT_MS, maxRetries: 0, signal });
    return result?.failed.length ?? owed.length;
  } catch {
    // The record could not be read or written: the next drain pass tries again (and sends nothing to those groups).
    return 0;
  }
}

async function refreshWorkspaceTier(memory: HookMemory): Promise<void> {
  try {
    await memory.tier.refresh(AbortSignal.timeout(REQUEST_TIMEOUT_MS));
  } catch {
    // The tier stays as it was; the next drain or recall refreshes it.
  }
}
