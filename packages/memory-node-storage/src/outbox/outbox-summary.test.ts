import { describe, expect, it } from 'vitest';
import { readOutboxSummary } from './outbox-summary.js';
import { enqueuedLine, temporaryDirectory, writeJournal } from '../../test-support/journal-fixtures.js';

const HOUR = 3_600_000;

describe('readOutboxSummary', () => {
  it('counts dead letters and messages queued over an hour, once each, leaving adopted journals out', async () => {
    const directory = await temporaryDirectory();
    const now = 10 * HOUR;
    await writeJournal(directory, 'outbox-a.journal', [
      enqueuedLine('old-1', 1, now - 3 * HOUR),
      enqueuedLine('old-2', 2, now - 2 * HOUR),
      enqueuedLine('fresh', 3, now - 60_000),
      enqueuedLine('dead', 4, now - 5 * HOUR),
      { t: 'dead', ids: ['dead'], at: now - HOUR, error: 'HTTP 422 (validation)' },
      enqueuedLine('sent-old', 5, now - 4 * HOUR),
      { t: 'sent', ids: ['sent-old'], at: now - HOUR },
      enqueuedLine('done', 6, now - 6 * HOUR),
      { t: 'confirmed', ids: ['done'] },
      { t: 'adopted', files: ['outbox-b.journal'] },
    ]);
    // Adopted by outbox-a: its records live on there (and must not count twice).
    await writeJournal(directory, 'outbox-b.journal', [enqueuedLine('old-1', 1, now - 3 * HOUR)]);
    expect(await readOutboxSummary(directory, now)).toEqual({ deadLetters: 1, waiting: 3, oldestWaitingAt: now - 4 * HOUR });
  });

  it('reads zeros for a missing folder', async () => {
    expect(await readOutboxSummary('/nonexistent/outbox', Date.now())).toEqual({ deadLetters: 0, waiting: 0 });
  });
});
