// The harness's two ways to fail, mapped one-to-one onto exit codes, so every command reports
// failures the same way and scripts can tell "you called it wrong" from "it did not work".

/** Exit codes of `graphiti-harness`, the same for every command (the `hook` command alone always exits 0: it must never fail a chat turn). */
export const ExitCode = {
  /** Done: what the command was asked to do happened. */
  ok: 0,
  /** The command ran and something did not work (unreachable endpoint, a write Graphiti refused, unconfirmed messages, `doctor` found a problem). */
  failure: 1,
  /** The command line was wrong (unknown command or option, bad value, missing `--yes`). */
  usage: 2,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit codes as `--help` states them, under every command. */
export const EXIT_CODES_HELP = [
  'Exit codes (every command):',
  '  0  done',
  '  1  failed: the command ran and something did not work (nothing answers, Graphiti refused a write, doctor found a problem)',
  '  2  usage: the command line was wrong (unknown command or option, bad value, --yes needed without a terminal)',
].join('\n');

/** Bad usage: printed as is, exit code 2. The message says what was wrong and what to write. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * A failure the harness understands: printed as `message` plus an optional hint line, exit code 1.
 * `details` go into the `--json` error object (no message content, no keys).
 */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  readonly hint: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(message: string, options: { hint?: string; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.hint = options.hint;
    this.details = options.details ?? {};
  }
}
