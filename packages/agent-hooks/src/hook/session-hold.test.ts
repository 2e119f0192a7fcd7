import { describe, expect, it } from 'vitest';
import { SessionHold } from './session-hold.js';

const open = async (): Promise<boolean> => true;
const closed = async (): Promise<boolean> => false;

describe('SessionHold', () => {
  it('holds for a session seen with memory open, and no longer once it ended', async () => {
    const hold = new SessionHold(60_000);
    expect(await hold.holding(0)).toBe(false);
    hold.seen('a', 0, open);
    expect(await hold.holding(1_000)).toBe(true);
    hold.ended('a');
    expect(await hold.holding(2_000)).toBe(false);
    expect(hold.size).toBe(0);
  });

  it('lets a session go once its last event is older than the hold limit (an agent that never said SessionEnd)', async () => {
    const hold = new SessionHold(60_000);
    hold.seen('a', 0, open);
    hold.seen('b', 30_000, open);
    expect(await hold.holding(60_000)).toBe(true);
    expect(hold.size).toBe(2);
    // a is past the limit, b is not.
    expect(await hold.holding(80_000)).toBe(true);
    expect(hold.size).toBe(1);
    expect(await hold.holding(90_001)).toBe(false);
  });

  it('a newer event of a session restarts its hold limit', async () => {
    const hold = new SessionHold(60_000);
    hold.seen('a', 0, open);
    hold.seen('a', 50_000, open);
    expect(await hold.holding(100_000)).toBe(true);
    expect(hold.size).toBe(1);
  });

  it('drops sessions whose memory closed, and those whose check fails (nothing is held on doubt)', async () => {
    const hold = new SessionHold(60_000);
    hold.seen('off', 0, closed);
    hold.seen('broken', 0, () => Promise.reject(new Error('config unreadable')));
    hold.seen('on', 0, open);
    expect(await hold.holding(1_000)).toBe(true);
    expect(hold.size).toBe(1);
    hold.ended('on');
    expect(await hold.holding(1_000)).toBe(false);
  });

  it('asks each session afresh every time', async () => {
    let answer = true;
    const hold = new SessionHold(60_000);
    hold.seen('a', 0, async () => answer);
    expect(await hold.holding(1_000)).toBe(true);
    answer = false;
    expect(await hold.holding(2_000)).toBe(false);
  });

  it('keeps a session seen again while its check was running, even if the older check says closed', async () => {
    const hold = new SessionHold(60_000);
    let release!: (value: boolean) => void;
    hold.seen('a', 0, () => new Promise<boolean>((resolve) => (release = resolve)));
    const checking = hold.holding(1_000);
    hold.seen('a', 1_500, open);
    release(false);
    expect(await checking).toBe(true);
    expect(hold.size).toBe(1);
  });

  it('remembers at most its cap of sessions, dropping the longest quiet first', async () => {
    const hold = new SessionHold(60_000, 2);
    hold.seen('a', 0, open);
    hold.seen('b', 1, open);
    hold.seen('a', 2, open);
    hold.seen('c', 3, open);
    expect(hold.size).toBe(2);
    hold.ended('a');
    hold.ended('c');
    // b was the quietest: it went when c came.
    expect(await hold.holding(10)).toBe(false);
  });
});
