// The heavy half of the bundled hook runner (dist/hook-runner-core-<build>.cjs): the hook itself
// and the hook server. The small entry (hook-runner.ts) loads it only when no server answers, or
// to become the server.
import { runHook, type HookIo, type HookRunSummary } from './run-hook.js';
import { serveHooks, type HookServerOptions } from './hook-server.js';

export function runInProcess(io: HookIo): Promise<HookRunSummary> {
  return runHook({ ...io, via: 'in-process' });
}

export function serve(options: HookServerOptions): Promise<void> {
  return serveHooks(options);
}

/** The shared libraries, for the extension's runtime in the same VSIX (shared-stack.ts). */
export * as stack from './shared-stack.js';
