// A Terminal that records what commands print, for running the harness in-process in tests.
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Terminal } from '../terminal/terminal.js';

export interface CapturedTerminal extends Terminal {
  readonly out: () => string;
  readonly err: () => string;
  /** Calls the interrupt listeners, as Ctrl-C would. */
  interrupt(): void;
}

/** A config folder per test process, so tests never read or write the user's real config. */
export const TEST_CONFIG_DIRECTORY = path.join(os.tmpdir(), `graphiti-harness-test-config-${process.pid}`);

export function capturedTerminal(options: { cwd?: string; env?: Record<string, string | undefined>; stdinText?: string } = {}): CapturedTerminal {
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  return {
    stdout: { write: (text: string) => ((out += text), true), isTTY: false },
    stderr: { write: (text: string) => ((err += text), true), isTTY: false },
    stdin: Readable.from(options.stdinText === undefined ? [] : [options.stdinText]),
    // The user config of tests is never the real one.
    env: { NO_COLOR: '1', GRAPHITI_MEMORY_CONFIG_DIR: TEST_CONFIG_DIRECTORY, ...options.env },
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
