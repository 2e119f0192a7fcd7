// The background drainer: started detached by Stop / SessionEnd (by a SessionStart whose tier is
// stale, and by any hook event that finds records waiting with no drainer: waiting-records.ts), it
// delivers and confirms what hooks put into the durable outbox, then refreshes the workspace's
// local tier. It stays while anything is pending: an outage (Graphiti stopped, unreachable,
// failing) is waited out with backoff, in rounds of ROUND_MS, until the records are delivered or
// reach the outbox's bound (`maxAgeHours`, 72 h by default), where they become dead letters. One per state folder: a second one finds the lock held and leaves at
// once (the running one adopts the newer journals); the outbox's own drain lock still guards sends.
// It leaves without sending as soon as memory is closed for its workspace and endpoint (the memory
// switches or the config's consent, checked before each round and every WATCH_MS) or a revoke,
// an uninstall or a forget asks it to (SIGTERM, found through its info file: stopDrainer); what is
// still queued stays in the outbox, on disk.
import lockfile from 'proper-lockfile';
import { makePrivateFolder, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { removeDrainerInfo, writeDrainerInfo } from './drainer-info.js';
import type { HookContext } from './hook-context.js';
import { adoptHookJournals, openHookMemory, type HookMemory } from './hook-memory.js';
import { waitForOpenDigests } from './digest-wait.js';
import { NullLogger } from './null-logger.js';
import { recordDrainEnd } from './waiting-records.js';

export { spawnDrainer, type DrainerLaunch } from './drainer-spawn.js';

const REQUEST_TIMEOUT_MS = 30_000;
const LOCK_STALE_MS = 30_000;
/** One round of waiting for delivery; between rounds the drainer checks memory is open, owed deletes and new journals. */
const ROUND_MS = 60_000;
/** Longest wait between two tries while Graphiti is unreachable (memory-core doubles from 500 ms up to this). */
const RETRY_MAX_MS = 60_000;
/** How often a running drain checks that memory is still open for it. */
const WATCH_MS = 250;

/** Why memory is closed now for the drainer's workspace and endpoint (`undefined`: still open). */
export type MemoryStillOpen = () => Promise<{ readonly outcome: string; readonly detail?: string } | undefined>;

/**
 * The drainer's timing: ROUND_MS and RETRY_MAX_MS, or shorter ones from the environment
 * (`GRAPHITI_MEMORY_DRAIN_ROUND_MS`, `GRAPHITI_MEMORY_DRAIN_RETRY_MAX_MS`: for tests that wait out
 * an outage in seconds, not minutes).
 */
export function drainTiming(env: NodeJS.ProcessEnv): { readonly roundMs: number; readonly retryMaxMs: number } {
  const read = (name: string, fallback: number): number => {
    const value = Number(env[name]);
    return Number.isInteger(value) && value >= 50 && value <= fallback ? value : fallback;
  };
  return { roundMs: read('GRAPHITI_MEMORY_DRAIN_ROUND_MS', ROUND_MS), retryMaxMs: read('GRAPHITI_MEMORY_DRAIN_RETRY_MAX_MS', RETRY_MAX_MS) };
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
    const timing = drainTiming(process.env);
    // No round limit: what stays pending is either delivered once Graphiti is back or, at the
    // outbox's bound (maxAgeHours), dead-lettered by memory-core, which ends the loop too.
    while (!leave.signal.aborted) {
      closedBy = await stillOpen();
      if (closedBy !== undefined) break;
      memory ??= await openHookMemory({ ...context, requestTimeoutMs: REQUEST_TIMEOUT_MS, durable: true, logger: new NullLogger(), ingestion: { maxRetryDelayMs: timing.retryMaxMs } });
      // Deletes a forget owes (it ran while Graphiti was unreachable) go first, even with nothing queued.
      owed = await carryOutOwedDeletes(memory, leave.signal);
      await adoptHookJournals(memory);
      memory.ingestion?.start();
      const result = await memory.ingestion?.waitForConfirmation({ timeoutMs: timing.roundMs, signal: leave.signal });
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
    // Pending and in flight, dead letters not counted: recorded after the close (its journal
    // writes), as a later hook event compares the journals' times with it.
    const left = memory?.outbox?.size() ?? 0;
    const opened = memory !== undefined;
    await memory?.close().catch(() => undefined);
    if (opened) await recordDrainEnd(context.stateDirectory, { endpoint: context.endpoint, at: Date.now(), pending: left }).catch(() => undefined);
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
