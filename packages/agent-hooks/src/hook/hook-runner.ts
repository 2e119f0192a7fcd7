// The bundled hook runner (dist/hook-runner.cjs): `node hook-runner.cjs [hook] [--event E] [options]`.
// Agent hook files run it on every prompt, so this entry loads node built-ins only: it reads stdin
// and hands the event to the hook server of its build for this user (hook-server.ts), which has
// the rest loaded.
// When none answers it loads the heavy half (hook-runner-core-<build>.cjs, next to this file),
// runs the event itself exactly as the server would, then starts a server for the next event. A
// UserPromptSubmit loads the lean prompt core (hook-runner-prompt-<build>.cjs) instead: the same
// code for that one event, without the rest; if it is missing or does not load, the full core.
// Whatever happens it exits 0, within the deadline plus process start.
import os from 'node:os';
import path from 'node:path';
import { loadCoreWithCache, type LoadedCore } from './core-loader.js';
import { forwardHookEvent, type ForwardResult } from './hook-forward.js';
import { parseHookInput } from './hook-input.js';
import { parseHookOptions } from './hook-options.js';
import { readHookStdin } from './hook-stdin.js';
import { forwardedEnvironment, HOOK_SERVER_PROTOCOL, HOOK_SERVER_SESSION_VARIABLE, heldSessionSeed, hookServerEnabled, hookServerPlace } from './hook-server-place.js';
import type * as HookCore from './hook-core.js';
import type * as PromptSubmitCore from './prompt-submit-core.js';

/** Hard stop: whatever still runs after this is abandoned (and the run counts as failed). */
const HARD_LIMIT_MS = 30_000;

declare const __HOOK_RUNNER_BUILD__: string | undefined;
/** Set by the bundle build (a hash of both halves); names the core file and the server's build. */
const BUILD = typeof __HOOK_RUNNER_BUILD__ === 'string' ? __HOOK_RUNNER_BUILD__ : 'dev';

/** `core`: everything (hook-core.ts); `prompt`: UserPromptSubmit alone (prompt-submit-core.ts). */
function loadCore(entry: string, kind: 'core'): LoadedCore<typeof HookCore>;
function loadCore(entry: string, kind: 'prompt'): LoadedCore<typeof PromptSubmitCore>;
function loadCore(entry: string, kind: 'core' | 'prompt'): LoadedCore<typeof HookCore | typeof PromptSubmitCore> {
  if (BUILD === 'dev') throw new Error('the hook runner entry runs only as the bundle (dist/hook-runner.cjs)');
  // zod compiles each object schema into a parser (`new Function`) on its first use; a one-event
  // process parses each schema once or twice, so compiling costs more than it saves. zod's own
  // global config key, read when zod loads. The long-lived server keeps the compiling.
  if (!process.argv.includes('--serve')) (globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig = { jitless: true };
  // undici parses HTTP with llhttp compiled to WebAssembly, and V8 then optimises that module again
  // on a background thread; a process waits for that job before it exits (60–100 ms after a one-event
  // run wrote its answer). V8's baseline code parses our few small responses well enough. Set in the
  // server too: V8 flags are part of a code cache's check, and the server shares the full core's cache
  // with one-event runs. Loaded here, not at the top: a forwarded (warm) event never needs it.
  process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
  return loadCoreWithCache(path.join(path.dirname(entry), `hook-runner-${kind}-${BUILD}.cjs`));
}

/** The lean core for a UserPromptSubmit; `undefined` (load the full core) for any other event, or when it does not load. */
function promptCoreFor(entry: string, argv: readonly string[], stdinText: string): LoadedCore<typeof PromptSubmitCore> | undefined {
  const options = parseHookOptions(argv);
  const input = parseHookInput(stdinText, options.event, options.agent);
  if (!input.ok || input.hook.event !== 'UserPromptSubmit') return undefined;
  try {
    const core = loadCore(entry, 'prompt');
    return typeof core.exports.runInProcess === 'function' ? core : undefined;
  } catch {
    // Missing (a runner copied without it) or broken: the full core runs the same event.
    return undefined;
  }
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const argv = process.argv.slice(2);
  const entry = process.argv[1] ?? '';
  const place = hookServerEnabled(process.env) ? hookServerPlace(process.env, BUILD) : undefined;
  if (argv.includes('--serve')) {
    try {
      if (place !== undefined) await loadCore(entry, 'core').exports.serve({ place, build: BUILD, entryPath: entry });
    } catch {
      // A server that cannot start (its core missing, the start lock held too long) just leaves.
    }
    process.exit(0);
  }
  const drain = argv.includes('--drain');
  // The drainer has no hard limit: it stays while records wait within the outbox's bound (hook-drainer.ts).
  if (!drain) setTimeout(() => process.exit(0), HARD_LIMIT_MS).unref();
  try {
    const stdinText = drain ? '' : await readHookStdin(process.stdin);
    let forwarded: ForwardResult = { kind: 'unavailable' };
    if (place !== undefined && !drain) {
      forwarded = await forwardHookEvent(place, {
        kind: 'hook',
        protocol: HOOK_SERVER_PROTOCOL,
        build: BUILD,
        argv,
        stdinText,
        cwd: process.cwd(),
        env: forwardedEnvironment(process.env),
        startedAt,
      });
    }
    if (forwarded.kind === 'served') {
      await write(forwarded.output);
    } else if (forwarded.kind === 'unavailable' || forwarded.kind === 'mismatch') {
      const core = (drain ? undefined : promptCoreFor(entry, argv, stdinText)) ?? loadCore(entry, 'core');
      const summary = await core.exports.runInProcess({
        argv,
        stdinText,
        env: process.env,
        cwd: process.cwd(),
        // In its own process the deadline counts once the code is loaded, as it always has.
        startedAt: Date.now(),
        write: (text) => process.stdout.write(text),
        drainer: { nodePath: process.execPath, scriptPath: entry, leadingArguments: [] },
        build: BUILD,
      });
      // Only while memory is on with consent: no background process for someone who never agreed.
      // It holds for this event's session as for those it serves (hook-server.ts).
      if (place !== undefined && !drain && summary.consented) startServer(entry, summary.session === undefined ? undefined : heldSessionSeed({ session: summary.session, argv, cwd: process.cwd() }));
      core.saveCache();
    }
    // `late`: the server took the event and missed the deadline; it logs that, nothing is printed.
  } catch {
    // Never in the way: nothing printed, exit 0.
  }
  // Done: leave at once once stdout is flushed — sockets of an abandoned request, or a keep-alive
  // pool, must not keep the agent waiting.
  process.stdout.write('', () => process.exit(0));
}

function write(text: string): Promise<void> {
  return new Promise((resolve) => (text === '' ? resolve() : process.stdout.write(text, () => resolve())));
}

/** Starts the hook server detached from this process and its stdio; it takes over from the next event. */
function startServer(entry: string, session: string | undefined): void {
  try {
    // Loaded only here (a forwarded event, most of them, starts nothing), and as a built-in: an
    // `import()` would start node's ESM loader.
    const { spawn } = process.getBuiltinModule('node:child_process');
    const env = session === undefined ? process.env : { ...process.env, [HOOK_SERVER_SESSION_VARIABLE]: session };
    const child = spawn(process.execPath, [entry, '--serve'], { detached: true, stdio: 'ignore', env, windowsHide: true, cwd: os.tmpdir() });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No server: the next event runs in its own process again.
  }
}

void main();
