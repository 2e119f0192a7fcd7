// For tests of FileOutbox: outboxes opened through `openOutbox` are closed after each test, so a
// failing assertion never leaves a journal lock or a commit timer behind for the next one.
import { afterEach } from 'vitest';
import { FileOutbox, type FileOutboxOptions } from '../src/outbox/file-outbox.js';

/** Registers the closing `afterEach` of this test file; returns the opener (journal commits every 5 ms). */
export function closingOutboxes(): (options: FileOutboxOptions) => Promise<FileOutbox> {
  const opened: FileOutbox[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((outbox) => outbox.close()));
  });
  return async (options) => {
    const outbox = await FileOutbox.open({ commitIntervalMs: 5, ...options });
    opened.push(outbox);
    return outbox;
  };
}
