import { describe, expect, it } from 'vitest';
import { deliveryNotice, LONG_WAIT_MS } from './delivery-notice.js';

const now = Date.UTC(2026, 10, 28, 12);

describe('deliveryNotice', () => {
  it('says nothing when nothing is dead or long-pending', () => {
    expect(deliveryNotice({ deadLetters: 0, waiting: 0 }, now)).toEqual({ deadLetters: 0, waiting: 0, level: 'ok', line: undefined });
  });

  it('names dead letters and what to do, in one line', () => {
    const notice = deliveryNotice({ deadLetters: 3, waiting: 0 }, now);
    expect(notice.level).toBe('dead-letters');
    expect(notice.line).toBe(
      'Graphiti Memory: 3 captured messages were not stored and will not be sent again on their own (dead letters): see `graphiti-harness outbox list`, then `outbox retry` or `outbox drop`.',
    );
  });

  it('names long-pending messages with how long and the bound, and both together', () => {
    const waiting = deliveryNotice({ deadLetters: 0, waiting: 1, oldestWaitingAt: now - 3 * LONG_WAIT_MS, maxAgeHours: 72 }, now);
    expect(waiting.level).toBe('waiting');
    expect(waiting.line).toBe(
      'Graphiti Memory: 1 captured message has waited 3 h for Graphiti (sent once it is reachable, kept trying until 72 h old): check it with `graphiti-harness health`.',
    );
    const both = deliveryNotice({ deadLetters: 1, waiting: 5, oldestWaitingAt: now - 50 * LONG_WAIT_MS }, now);
    expect(both.level).toBe('dead-letters');
    expect(both.line).toContain('1 captured message was not stored');
    expect(both.line).toContain('5 captured messages have waited 2 days');
    expect(both.line?.split('\n')).toHaveLength(1);
  });

  it("speaks the status menu's plain words to the editor", () => {
    const notice = deliveryNotice({ deadLetters: 2, waiting: 0 }, now, 'editor');
    expect(notice.line).toBe('Graphiti Memory: 2 captured messages were not stored and will not be sent again on their own: choose "Retry Unsent Messages" in the status menu.');
    expect(notice.line).not.toMatch(/dead letter|graphiti-harness/);
  });
});
