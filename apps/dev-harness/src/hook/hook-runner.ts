// The bundled hook runner (dist/hook-runner.cjs): `node hook-runner.cjs [hook] [--event E] [options]`.
// Agent hook files run it on every prompt, so it stays lean: it reads stdin, then loads the rest
// lazily, and it always exits 0 within the deadline plus process start.
import { readHookStdin } from './hook-stdin.js';

/** Hard stop: whatever still runs after this is abandoned (and the run counts as failed). */
const HARD_LIMIT_MS = 30_000;

// zod compiles each object schema into a parser (`new Function`) on its first use; a hook process
// parses each schema once or twice, so the compiling costs more than it saves. This is zod's own
// global config key, read when zod loads (below, lazily).
(globalThis as { __zod_globalConfig?: Record<string, unknown> }).__zod_globalConfig = { jitless: true };

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const drain = argv.includes('--drain');
  const hardLimit = setTimeout(() => process.exit(0), drain ? 10 * HARD_LIMIT_MS : HARD_LIMIT_MS);
  hardLimit.unref();
  try {
    const stdinText = drain ? '' : await readHookStdin(process.stdin);
    const { runHook } = await import('./run-hook.js');
    await runHook({
      argv,
      stdinText,
      env: process.env,
      cwd: process.cwd(),
      write: (text) => process.stdout.write(text),
      drainer: { nodePath: process.execPath, scriptPath: process.argv[1] ?? '', leadingArguments: [] },
    });
  } catch {
    // Never in the way: nothing printed, exit 0.
  }
  // Done: leave at once once stdout is flushed — sockets of an abandoned request, or a keep-alive
  // pool, must not keep the agent waiting.
  process.stdout.write('', () => process.exit(0));
}

void main();
