// The write path end to end, shared by `graphiti-harness smoke` and the extension's Test Connection:
// one synthetic message (no chat content) into a temporary group, polled for (bounded) through
// the episodes until it is stored, and the group always deleted again. Each tool words the result
// for its users; the protocol is this one.
import type { Clock, GraphitiApi } from '../ports.js';

export interface SmokeTestOptions {
  /** Names the temporary group and the message (`<tool>-smoke-<random>`): a group id's characters only. */
  readonly tool: string;
  /** How long to wait for the message to be stored. */
  readonly timeoutMs: number;
  readonly clock: Clock;
  /** First wait between reads; doubled up to `maxPollIntervalMs`. */
  readonly pollIntervalMs?: number;
  readonly maxPollIntervalMs?: number;
  /** Stops waiting (the group is still deleted). */
  readonly signal?: AbortSignal;
  /** Told the time waited so far after each read (progress). */
  readonly onWait?: (elapsedMs: number) => void;
}

export interface SmokeTestResult {
  readonly groupId: string;
  /** `undefined`: not stored in time, interrupted, or a step failed. */
  readonly visibleAfterMs: number | undefined;
  readonly interrupted: boolean;
  /** The write or a read failed: the error, to be described by the caller. */
  readonly failure?: { readonly step: 'write' | 'read'; readonly error: unknown };
  readonly cleanedUp: boolean;
  readonly cleanupError?: unknown;
}

const DEFAULT_POLL_INTERVAL_MS = 100;
const DEFAULT_MAX_POLL_INTERVAL_MS = 2_000;

export async function runSmokeTest(api: GraphitiApi, options: SmokeTestOptions): Promise<SmokeTestResult> {
  const id = globalThis.crypto.randomUUID().replace(/-/g, '');
  const groupId = `${options.tool}-smoke-${id.slice(0, 16)}`;
  const name = `${options.tool}.smoke.${id}`;
  const { clock, signal } = options;
  const aborted = (): boolean => signal?.aborted === true;
  const started = clock.now();
  let visibleAfterMs: number | undefined;
  let failure: SmokeTestResult['failure'];
  try {
    await api.addMessages({
      group_id: groupId,
      messages: [
        {
          content: `The ${options.tool} smoke test wrote this temporary message; it is deleted right away.`,
          role_type: 'user',
          role: `${options.tool}-smoke-test`,
          name,
          timestamp: new Date(clock.now()).toISOString(),
          source_description: `${options.tool} smoke test`,
        },
      ],
    });
    let delay = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const deadline = started + options.timeoutMs;
    while (!aborted()) {
      let episodes;
      try {
        episodes = await api.getEpisodes(groupId, { lastN: 10 }, signal === undefined ? {} : { signal });
      } catch (error) {
        if (aborted()) break;
        failure = { step: 'read', error };
        break;
      }
      if (episodes.some((episode) => episode.name === name)) {
        visibleAfterMs = Math.round(clock.now() - started);
        break;
      }
      const now = clock.now();
      options.onWait?.(now - started);
      if (now >= deadline) break;
      await clock.sleep(Math.min(delay, deadline - now), signal);
      delay = Math.min(delay * 2, options.maxPollIntervalMs ?? DEFAULT_MAX_POLL_INTERVAL_MS);
    }
  } catch (error) {
    failure = { step: 'write', error };
  }
  let cleanupError: unknown;
  const cleanedUp = await api.deleteGroup(groupId).then(
    () => true,
    (error: unknown) => {
      cleanupError = error;
      return false;
    },
  );
  return {
    groupId,
    visibleAfterMs,
    interrupted: aborted(),
    ...(failure === undefined ? {} : { failure }),
    cleanedUp,
    ...(cleanedUp ? {} : { cleanupError }),
  };
}
