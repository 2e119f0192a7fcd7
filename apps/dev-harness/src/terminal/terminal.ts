// What the harness needs from the process it runs in, behind one small interface, so commands are
// testable in-process and the binary wires in the real process.
import type { Readable } from 'node:stream';

export interface TerminalStream {
  write(text: string): boolean;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface Terminal {
  readonly stdout: TerminalStream;
  readonly stderr: TerminalStream;
  readonly stdin: Readable & { readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Calls `listener` on Ctrl-C (SIGINT) or SIGTERM until disposed. */
  onInterrupt(listener: () => void): { dispose(): void };
}

/** The terminal of this process. */
export function processTerminal(): Terminal {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(listener) {
      process.on('SIGINT', listener);
      process.on('SIGTERM', listener);
      return {
        dispose() {
          process.off('SIGINT', listener);
          process.off('SIGTERM', listener);
        },
      };
    },
  };
}

/**
 * Whether a stream gets colours: a TTY and no `NO_COLOR` / `TERM=dumb`, or `FORCE_COLOR` set to
 * anything but 0 (https://no-color.org, https://force-color.org).
 */
export function supportsColor(stream: TerminalStream, env: Readonly<Record<string, string | undefined>>): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['TERM'] === 'dumb') return false;
  return stream.isTTY === true;
}
