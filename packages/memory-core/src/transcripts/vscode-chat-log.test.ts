import { describe, expect, it } from 'vitest';
import { ChatSessionLog } from './vscode-chat-log.js';

function replay(entries: readonly Record<string, unknown>[]): { log: ChatSessionLog; failed: number } {
  const log = new ChatSessionLog();
  let failed = 0;
  for (const entry of entries) if (log.apply(entry) === undefined) failed += 1;
  return { log, failed };
}

describe('ChatSessionLog', () => {
  it('splices: truncates to i when present, then pushes v', () => {
    const { log } = replay([
      { kind: 0, v: { list: [1, 2, 3, 4] } },
      { kind: 2, k: ['list'], v: [9], i: 2 },
    ]);
    expect(log.state).toEqual({ list: [1, 2, 9] });
    const appended = replay([{ kind: 0, v: { list: [1] } }, { kind: 2, k: ['list'], v: [2, 3] }]);
    expect(appended.log.state).toEqual({ list: [1, 2, 3] });
    const truncated = replay([{ kind: 0, v: { list: [1, 2, 3] } }, { kind: 2, k: ['list'], i: 1 }]);
    expect(truncated.log.state).toEqual({ list: [1] });
    const created = replay([{ kind: 0, v: { nested: {} } }, { kind: 2, k: ['nested', 'list'], v: ['a'] }]);
    expect(created.log.state).toEqual({ nested: { list: ['a'] } });
    const beyond = replay([{ kind: 0, v: { list: [1] } }, { kind: 2, k: ['list'], v: [2], i: 5 }]);
    expect(beyond.log.state).toEqual({ list: [1, 2] });
  });

  it('sets and deletes at mixed key paths', () => {
    const { log, failed } = replay([
      { kind: 0, v: { requests: [{ modelState: { value: 0 } }] } },
      { kind: 1, k: ['requests', 0, 'modelState'], v: { value: 1 } },
      { kind: 1, k: ['requests', 0, 'elapsedMs'], v: 12 },
      { kind: 3, k: ['requests', 0, 'elapsedMs'] },
      { kind: 1, k: ['requests', 1], v: { requestId: 'next' } },
    ]);
    expect(failed).toBe(0);
    expect(log.state).toEqual({ requests: [{ modelState: { value: 1 } }, { requestId: 'next' }] });
  });

  it('lets a later snapshot replace everything, and a root set replace the session', () => {
    const { log } = replay([
      { kind: 0, v: { a: 1 } },
      { kind: 0, v: { b: 2 } },
    ]);
    expect(log.state).toEqual({ b: 2 });
    const root = replay([{ kind: 0, v: { a: 1 } }, { kind: 1, k: [], v: { c: 3 } }]);
    expect(root.log.state).toEqual({ c: 3 });
  });

  it('refuses entries it cannot apply instead of throwing', () => {
    const { log, failed } = replay([
      { kind: 1, k: ['a'], v: 1 },
      { kind: 0, v: { list: [1], text: 'x' } },
      { kind: 1, k: ['missing', 'deep'], v: 1 },
      { kind: 2, k: ['text'], v: [1] },
      { kind: 2, k: ['list'], v: 'not an array' },
      { kind: 2, k: ['list'], i: 1.5 },
      { kind: 1, k: ['list', 7], v: 1 },
      { kind: 1, k: ['constructor', 'prototype'], v: 1 },
      { kind: 1, k: 'list', v: 1 },
      { kind: 7, k: ['list'] },
    ]);
    expect(failed).toBe(9);
    expect(log.state).toEqual({ list: [1], text: 'x' });
  });
});
