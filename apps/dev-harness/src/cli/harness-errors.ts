// The harness's two ways to fail, mapped one-to-one onto exit codes, so every command reports
// failures the same way and scripts can tell "you called it wrong" from "it did not work".

/** Exit codes of `graphiti-harness`. */
export const ExitCode = {
  ok: 0,
  /** The command ran and something did not work (unreachable endpoint, unconfirmed messages). */
  failure: 1,
  /** The command line was wrong (unknown option, bad value, missing `--yes`). */
  usage: 2,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

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
