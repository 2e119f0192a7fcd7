// The heavy half of the bundled hook runner (dist/hook-runner-core-<build>.cjs): the hook itself
// and the hook server. The small entry (hook-runner.ts) loads it only when no server answers, or
// to become the server.
import { runHook, type HookIo, type HookRunSummary } from './run-hook.js';
import { serveHooks, type HookServerOptions } from './hook-server.js';
import { HOOK_SERVER_SESSION_VARIABLE, hookServerIdleMs, readHeldSessionSeed } from './hook-server-place.js';

export function runInProcess(io: HookIo): Promise<HookRunSummary> {
  return runHook({ ...io, via: 'in-process' });
}

export function serve(options: HookServerOptions): Promise<void> {
  const idleMs = options.idleMs ?? hookServerIdleMs(process.env);
  const heldSession = options.heldSession ?? readHeldSessionSeed(process.env);
  // Read once: the processes it starts (drainers) take each event's own environment, not this.
  delete process.env[HOOK_SERVER_SESSION_VARIABLE];
  return serveHooks({ ...options, ...(idleMs === undefined ? {} : { idleMs }), ...(heldSession === undefined ? {} : { heldSession }) });
}

/** The shared libraries, for the extension's runtime in the same VSIX (shared-stack.ts). */
export * as stack from './shared-stack.js';
