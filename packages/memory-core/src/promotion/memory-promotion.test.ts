import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../ports.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { QueuedMemoryPromotion } from './memory-promotion.js';

function promotionWith(services: ReturnType<typeof createPolicyServices>) {
  const enqueued: OutboxEntry[] = [];
  const promotion = new QueuedMemoryPromotion(services.promotion, { enqueueEntries: (entries) => enqueued.push(...entries) });
  return { promotion, enqueued };
}

describe('QueuedMemoryPromotion', () => {
  it('hands the planned episode to ingestion and says where it goes', async () => {
    const services = createPolicyServices();
    const { promotion, enqueued } = promotionWith(services);
    const outcome = await promotion.promote({ kind: 'decision', scope: 'workspace', text: 'We use zod.' });
    expect(enqueued).toHaveLength(1);
    expect(outcome).toEqual({ ok: true, groupId: await services.groups.resolve('workspace'), episodeName: enqueued[0]?.message.name });
    expect(enqueued[0]?.message.content).toContain('<graphiti_episode kind="decision" scope="workspace"');
  });

  it('enqueues nothing when the promotion is refused, and gives the reason', async () => {
    const closed = promotionWith(createPolicyServices({ consentFor: null }));
    expect(await closed.promotion.promote({ kind: 'decision', scope: 'workspace', text: 'We use zod.' })).toEqual({ ok: false, reason: 'gate-closed' });
    const open = promotionWith(createPolicyServices());
    expect(await open.promotion.promote({ kind: 'opinion', scope: 'user', text: 'x' })).toEqual({ ok: false, reason: 'invalid-kind' });
    expect([...closed.enqueued, ...open.enqueued]).toEqual([]);
  });
});
