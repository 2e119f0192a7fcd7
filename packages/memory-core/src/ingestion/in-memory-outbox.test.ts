import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../ports.js';
import { FakeClock } from '../../test-support/fakes.js';
import { InMemoryDeliveryLedger, deliveryKey } from './in-memory-delivery-ledger.js';
import { InMemoryOutbox } from './in-memory-outbox.js';

function entries(count: number, groupId = 'g'): OutboxEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    groupId,
    message: { content: `c${index}`, role_type: 'user', role: null, name: `n${index}` },
  }));
}

function outboxWith(maxQueueSize: number): { outbox: InMemoryOutbox; limits: { maxQueueSize: number }; clock: FakeClock } {
  const limits = { maxQueueSize };
  const clock = new FakeClock();
  return { outbox: new InMemoryOutbox({ current: () => limits }, clock), limits, clock };
}

describe('InMemoryOutbox', () => {
  it('keeps append order and moves records through pending → sent → confirmed', async () => {
    const { outbox, clock } = outboxWith(100);
    expect(outbox.append(entries(3))).toEqual({ accepted: 3, dropped: 0 });
    const pending = await outbox.pending(10);
    expect(pending.map((record) => record.message.name)).toEqual(['n0', 'n1', 'n2']);
    expect(pending[0]).toMatchObject({ state: 'pending', attempts: 0, enqueuedAt: clock.now(), groupId: 'g' });
    outbox.markSent([pending[0]!.id, pending[1]!.id], 42);
    expect((await outbox.pending(10)).map((record) => record.message.name)).toEqual(['n2']);
    expect(await outbox.inFlight()).toEqual([
      expect.objectContaining({ id: pending[0]!.id, state: 'sent', attempts: 1, sentAt: 42 }),
      expect.objectContaining({ id: pending[1]!.id, state: 'sent', attempts: 1, sentAt: 42 }),
    ]);
    outbox.markPending([pending[1]!.id]);
    expect((await outbox.pending(10)).map((record) => record.message.name)).toEqual(['n1', 'n2']);
    outbox.markConfirmed([pending[0]!.id]);
    expect(outbox.size()).toBe(2);
    expect(await outbox.pending(1)).toHaveLength(1);
    expect(await outbox.pending(0)).toHaveLength(0);
    expect(await outbox.acquireDrain()).toBe(true);
  });

  it('drops the oldest pending records beyond maxQueueSize, never sent ones', async () => {
    const { outbox, limits } = outboxWith(4);
    outbox.append(entries(2, 'a'));
    const sent = await outbox.pending(2);
    outbox.markSent(
      sent.map((record) => record.id),
      1,
    );
    expect(outbox.append(entries(4, 'b'))).toEqual({ accepted: 4, dropped: 2 });
    expect((await outbox.inFlight()).map((record) => record.groupId)).toEqual(['a', 'a']);
    expect((await outbox.pending(10)).map((record) => record.message.name)).toEqual(['n2', 'n3']);
    limits.maxQueueSize = 1; // a setting lowered at run time applies at the next append
    expect(outbox.append([])).toEqual({ accepted: 0, dropped: 2 });
    expect(outbox.size()).toBe(2);
    expect(outbox.droppedByReason.overflow).toBe(4);
  });

  it('counts dead-lettered records apart from overflow', async () => {
    const { outbox } = outboxWith(10);
    outbox.append(entries(2));
    const [first] = await outbox.pending(1);
    outbox.markDropped([first!.id, 'unknown-id'], 'dead-letter', 'HTTP 422');
    expect(outbox.droppedByReason).toEqual({ overflow: 0, 'dead-letter': 1, forgotten: 0 });
    expect(outbox.size()).toBe(1);
  });
});

describe('InMemoryDeliveryLedger', () => {
  it('remembers keys and forgets the oldest beyond its capacity', () => {
    const ledger = InMemoryDeliveryLedger.withCapacity(2);
    ledger.add(deliveryKey('g', 'a'));
    ledger.add(deliveryKey('g', 'b'));
    ledger.add(deliveryKey('g', 'a'));
    expect(ledger.has('g:a')).toBe(true);
    ledger.add(deliveryKey('g', 'c'));
    expect([ledger.has('g:a'), ledger.has('g:b'), ledger.has('g:c')]).toEqual([false, true, true]);
    expect(ledger.size).toBe(2);
    expect(new InMemoryDeliveryLedger().has('g:a')).toBe(false);
  });
});
