// `graphiti-harness hook` and the bundled hook-runner.cjs share this: read one event, act on it,
// print `additionalContext` or nothing. Never in the way: any failure, timeout, missing config or
// bad stdin ends with nothing printed and a line in the state folder's hook log, and the caller
// exits 0. Without consent for the configured endpoint nothing touches the network.
import { errorClassOf } from '@graphiti-memory/memory-core';
import { storageFaultOf, type Environment, type StorageFault } from '@graphiti-memory/memory-node-storage';
import { configNoticeOutput } from './config-notice.js';
import { resolveHookContext, type HookContext } from './hook-context.js';
import { recordHookRun, type HookRun } from './hook-log.js';
import type { HookMemory } from './hook-memory.js';
import { parseHookOptions } from './hook-options.js';
import { spawnDrainer, type DrainerLaunch } from './drainer-spawn.js';
import { recordsWaitWithoutDrainer } from './waiting-records.js';
import type { HandlerResult } from './handler-result.js';
import type { HookSession } from './hook-server-place.js';
import { everyHookEvent } from './hook-events.js';
import type { HookHandlers } from './hook-handlers.js';
import { NullLogger } from './null-logger.js';
import { hookOutput } from './hook-output.js';
import { firstRunOfEvent } from './event-once.js';
import { assistantOfCommandLine } from '../assistants/assistant-registry.js';

export interface HookIo {
  readonly argv: readonly string[];
  readonly stdinText: string;
  readonly env: Environment;
  readonly cwd: string;
  write(text: string): void;
  /** How to start the background drainer; `undefined` leaves delivery to the next drain. */
  readonly drainer: DrainerLaunch | undefined;
  readonly now?: () => Date;
  /** When the hook process started (epoch ms); deadlines count from here. Default: now. */
  readonly startedAt?: number;
  /** Told the event's deadline (ms from `startedAt`) once the config is read (the hook server tells its runner). */
  readonly onDeadline?: (ms: number) => void;
  /** Who ran the event, for the run log: the runner itself or the background hook server. */
  readonly via?: HookRun['via'];
  readonly build?: HookRun['build'];
}

/** Where a run was logged, for a caller that has more to log (never content). */
export interface HookRunSummary {
  readonly stateDirectory: string | undefined;
  readonly event: string;
  readonly outcome: string;
  /** Memory is on with consent for the endpoint: worth keeping a hook server warm. */
  readonly consented: boolean;
  /** The agent session the event named and where it ran, when memory was open for it (the hook server holds for open sessions). */
  readonly session?: HookSession;
  /** The write the disk refused, when that is why the run failed (content-free: code and path). */
  readonly storageFault?: StorageFault;
}

const DRAIN_EVENT = JSON.stringify({ hook_event_name: 'Stop' });
/** Closing waits at most this (a socket to a hanging server never closes by itself). */
const CLOSE_BOUND_MS = 100;
/** Longest per-request timeout of SessionStart's and Stop's calls (they have no recall deadline). */
const HOOK_REQUEST_TIMEOUT_MS = 5_000;
/** Stop and SessionEnd only write the outbox: generous, so a slow disk does not lose turns. */
const CAPTURE_DEADLINE_MS = 10_000;

/**
 * Whether memory is still open for the workspace where a session's event ran (its config, consent,
 * memory switches and trust read afresh): the hook server asks it of the sessions it stays warm for.
 */
export function stillOpenFor(io: Pick<HookIo, 'argv' | 'env' | 'cwd'>, session: HookSession): () => Promise<boolean> {
  const options = parseHookOptions(io.argv);
  const where = JSON.stringify({ hook_event_name: 'Stop', cwd: session.cwd, transcript_path: session.transcriptPath });
  return async () => (await resolveHookContext(where, options, io.env, io.cwd)).ok;
}

/** Runs one hook event; resolves when done, never rejects. */
export function runHook(io: HookIo): Promise<HookRunSummary> {
  return runHookWith(io, everyHookEvent);
}

/**
 * `runHook` with the handlers it may load: the bundled runner's lean prompt core carries
 * UserPromptSubmit's alone (prompt-submit-core.ts), so a cold prompt loads nothing else.
 */
export async function runHookWith(io: HookIo, handlers: HookHandlers): Promise<HookRunSummary> {
  const startedAt = io.startedAt ?? Date.now();
  const now = io.now ?? (() => new Date());
  const options = parseHookOptions(io.argv);
  let stateDirectory: string | undefined;
  let event = options.event ?? 'unknown';
  let consented = false;
  let session: HookSession | undefined;
  let result: HandlerResult;
  let fault: StorageFault | undefined;
  try {
    // The drainer reads no stdin: it runs as a Stop of the workspace it was started for.
    const resolved = await resolveHookContext(options.drain ? DRAIN_EVENT : io.stdinText, options, io.env, io.cwd);
    if (!resolved.ok) {
      stateDirectory = resolved.stateDirectory;
      event = resolved.event;
      result = { outcome: resolved.outcome, ...(resolved.detail === undefined ? {} : { detail: resolved.detail }) };
      // To the user (systemMessage), once per session; never into the model's context.
      const notice = resolved.userNotice;
      // Only where the assistant shows a `systemMessage` (elsewhere any extra output can fail the hook).
      const told = notice === undefined || options.drain || assistantOfCommandLine(options.agent)?.output.systemMessage !== true ? undefined : await configNoticeOutput(resolved.stateDirectory, resolved.event, notice.sessionId, notice.text);
      if (told !== undefined) io.write(told);
    } else {
      const { context } = resolved;
      consented = true;
      session = options.drain ? undefined : sessionOf(context.hook);
      stateDirectory = context.stateDirectory;
      event = options.drain ? 'drain' : context.hook.event;
      io.onDeadline?.(context.hook.event === 'Stop' || context.hook.event === 'SessionEnd' ? CAPTURE_DEADLINE_MS : context.config.recallTimeoutMs);
      // The drainer checks again, before each round and while it waits, that memory is still open.
      const stillOpen = async () => {
        const again = await resolveHookContext(DRAIN_EVENT, options, io.env, io.cwd);
        return again.ok ? undefined : { outcome: again.outcome, ...(again.detail === undefined ? {} : { detail: again.detail }) };
      };
      const drainer = handlers.drainer;
      if (options.drain) result = drainer === undefined ? { outcome: 'unknown-event', detail: 'drain' } : await (await drainer()).runDrainer(context, stillOpen);
      // The assistant ran this event through another of our hook files already: that run answers.
      else if (!(await firstRunOfEvent(context.stateDirectory, context.hook))) result = { outcome: 'same-event', detail: 'ran through another hook file of this session' };
      else result = await handleEvent(context, startedAt, now, handlers);
      const printed = hookOutput(context.hook, result);
      if (printed !== undefined) io.write(printed);
      // Records left waiting (a drainer killed or asked to leave) are picked up by any later event of any session.
      const drain = result.drain === true || (!options.drain && io.drainer !== undefined && (await recordsWaitWithoutDrainer(context.stateDirectory, context.endpoint)));
      if (drain && io.drainer !== undefined) spawnDrainer(io.drainer, context, { ...io.env } as NodeJS.ProcessEnv);
    }
  } catch (error) {
    // A write the disk refused is named (code, file, what to do); anything else by its class.
    fault = storageFaultOf(error);
    result = { outcome: 'failed', detail: fault?.message ?? errorClassOf(error) };
  }
  if (options.ignored.length > 0 && result.detail === undefined) result = { ...result, detail: `ignored flags: ${options.ignored.join(' ')}` };
  if (stateDirectory !== undefined) {
    await recordHookRun(stateDirectory, {
      time: now().toISOString(),
      event,
      outcome: result.outcome,
      ms: Date.now() - startedAt,
      ...(result.detail === undefined ? {} : { detail: result.detail }),
      ...(io.via === undefined ? {} : { via: io.via }),
      ...(io.build === undefined ? {} : { build: io.build }),
    });
  }
  return { stateDirectory, event, outcome: result.outcome, consented, ...(session === undefined ? {} : { session }), ...(fault === undefined ? {} : { storageFault: fault }) };
}

async function handleEvent(context: HookContext, startedAt: number, now: () => Date, handlers: HookHandlers): Promise<HandlerResult> {
  const durable = context.hook.event === 'Stop' || context.hook.event === 'SessionEnd';
  const requestTimeoutMs = context.hook.event === 'UserPromptSubmit' ? context.config.recallTimeoutMs : HOOK_REQUEST_TIMEOUT_MS;
  let memory: HookMemory | undefined;
  try {
    memory = await handlers.openMemory(context.hook.event)({ ...context, requestTimeoutMs, durable, logger: new NullLogger() });
    // Each event loads only its own handler.
    const handler = handlers.events[context.hook.event];
    return handler === undefined ? { outcome: 'unknown-event' } : await (await handler())(context, memory, startedAt, now);
  } finally {
    // Bounded: a hanging close (a socket to a stuck server) must not hold the hook.
    if (memory !== undefined) await Promise.race([memory.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, CLOSE_BOUND_MS).unref())]);
  }
}

/** The event's session and where it ran, without its content; `undefined` when it names none. */
function sessionOf(hook: HookContext['hook']): HookSession | undefined {
  if (hook.sessionId === undefined) return undefined;
  return { id: hook.sessionId, ...(hook.cwd === undefined ? {} : { cwd: hook.cwd }), ...(hook.transcriptPath === undefined ? {} : { transcriptPath: hook.transcriptPath }) };
}
