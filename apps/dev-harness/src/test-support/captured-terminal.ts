// A Terminal that records what commands print, for running the harness in-process in tests.
import { Readable } from 'node:stream';
import type { Terminal } from '../terminal/terminal.js';

export interface CapturedTerminal extends Terminal {
  readonly out: () => string;
  readonly err: () => string;
  /** Calls the interrupt listeners, as Ctrl-C would. */
  interrupt(): void;
}

export function capturedTerminal(options: { cwd?: string; env?: Record<string, string | undefined>; stdinText?: string } = {}): CapturedTerminal {
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  return {
    stdout: { write: (text: string) => ((out += text), true), isTTY: false },
    stderr: { write: (text: string) => ((err += text), true), isTTY: false },
    stdin: Readable.from(options.stdinText === undefined ? [] : [options.stdinText]),
    env: { NO_COLOR: '1', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    onInterrupt(listener) {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    out: () => out,
    err: () => err,
    interrupt() {
      for (const listener of [...listeners]) listener();
    },
  };
}
