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
    stdout: pipeSafe(process.stdout),
    stderr: pipeSafe(process.stderr),
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

const pipeSafeStreams = new WeakSet<NodeJS.WriteStream>();

/**
 * `stream`, where a reader that went away (`graphiti-harness hooks status | head -1`) ends the
 * output quietly: the EPIPE is absorbed once, here, for every command (Node then drops later
 * writes to the destroyed stream), and the command still finishes its work — a state file left
 * half-updated because nobody read the output would be worse than the lost lines — and exits with
 * its own code. Any other failure of the terminal itself makes the exit code 1.
 */
export function pipeSafe(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (!pipeSafeStreams.has(stream)) {
    pipeSafeStreams.add(stream);
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') process.exitCode = 1;
    });
  }
  return stream;
}
