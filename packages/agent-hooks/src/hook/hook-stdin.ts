// Reads the hook event from stdin: bounded in size and time, so a host that never closes stdin or
// pipes something huge cannot hold the hook.
import type { Readable } from 'node:stream';
import { HOOK_INPUT_TOO_LARGE, MAX_HOOK_INPUT_BYTES } from './hook-input.js';

export const STDIN_TIMEOUT_MS = 2_000;

/** The text on stdin (empty when it is a terminal or not closed in time; HOOK_INPUT_TOO_LARGE past the bound). */
export function readHookStdin(stdin: Readable & { readonly isTTY?: boolean }, timeoutMs = STDIN_TIMEOUT_MS): Promise<string> {
  if (stdin.isTTY === true) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (text: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      stdin.pause();
      resolve(text);
    };
    const timer = setTimeout(() => finish(Buffer.concat(chunks).toString('utf8')), timeoutMs);
    timer.unref();
    stdin.on('data', (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > MAX_HOOK_INPUT_BYTES) finish(HOOK_INPUT_TOO_LARGE);
      else chunks.push(buffer);
    });
    stdin.on('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    stdin.on('error', () => finish(''));
  });
}
