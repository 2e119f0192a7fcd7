// The drainer stays while session digests are open: a Stop leaves the session's turns in an open
// segment (beside the outbox), which closes `capture.idleMinutes` after its last turn. Something
// must be alive then, so the drainer waits for it (in short slices, taking over new journals and
// delivering in between) and leaves once no segment is open. A crashed or killed drainer loses
// nothing: the segment is on disk and the next hook event's drainer closes it.
import { DEFAULT_SETTINGS } from '@graphiti-memory/memory-core';
import { endpointStateFiles, FileDigestSegmentStore } from '@graphiti-memory/memory-node-storage';
import type { HookContext } from './hook-context.js';
import { adoptHookJournals, type HookMemory } from './hook-memory.js';

/** How often the waiting drainer looks for new journals and due segments. */
const SLICE_MS = 2_000;
/** Passes that found a segment due but could not close it (memory closed meanwhile): then leave it to the next run. */
const MAX_STUCK_PASSES = 3;

export interface DigestWait {
  readonly confirmed: number;
  readonly pending: number;
}

/** Waits until no digest segment of the endpoint is open, delivering what closes. Never throws. */
export async function waitForOpenDigests(context: HookContext, memory: HookMemory, signal: AbortSignal): Promise<DigestWait> {
  const ingestion = memory.ingestion;
  if (ingestion === undefined) return { confirmed: 0, pending: 0 };
  const segments = new FileDigestSegmentStore(endpointStateFiles(context.stateDirectory, context.endpoint).outboxDirectory);
  const idleMs = (context.config.settings?.capture.idleMinutes ?? DEFAULT_SETTINGS.capture.idleMinutes) * 60_000;
  let confirmed = 0;
  let pending = 0;
  let stuck = 0;
  try {
    while (!signal.aborted) {
      const open = await segments.read();
      if (open.length === 0) break;
      const dueIn = Math.min(...open.map((segment) => segment.lastTurnAt)) + idleMs - Date.now();
      // A segment dated in the future (the clock moved back): the next run's drainer takes it.
      if (dueIn > idleMs + SLICE_MS) break;
      if (dueIn <= 0 && ++stuck > MAX_STUCK_PASSES) break;
      await sleep(Math.min(SLICE_MS, Math.max(dueIn, 0) + 100), signal);
      await adoptHookJournals(memory);
      await ingestion.drain();
      const result = await ingestion.waitForConfirmation({ timeoutMs: SLICE_MS, signal });
      confirmed += result.confirmed;
      pending = result.pending;
    }
  } catch {
    // Left for the next run: the segments and the outbox are on disk.
  }
  return { confirmed, pending };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
