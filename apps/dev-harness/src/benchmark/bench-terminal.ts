// A quiet terminal for commands a benchmark runs in-process (their output is not the measurement).
import { Readable } from 'node:stream';
import type { Terminal } from '../terminal/terminal.js';

export function capturedTerminalFor(cwd: string, env: NodeJS.ProcessEnv): Terminal {
  const sink = { write: () => true, isTTY: false };
  return {
    stdout: sink,
    stderr: sink,
    stdin: Readable.from([]),
    env: { ...env, NO_COLOR: '1' },
    cwd,
    onInterrupt: () => ({ dispose() {} }),
  };
}
