import { describe, expect, it } from 'vitest';
import type { ChatTurn, OutboxEntry } from '../ports.js';
import { FakeClock, RecordingLogger } from '../../test-support/fakes.js';
import { createPolicyServices } from '../../test-support/memory-services.js';
import { GroupRecorder, TITLE_MAX_CHARS } from './group-recorder.js';
import type { GroupRegistry } from './group-registry.js';
import { InMemoryGroupRegistry } from './in-memory-group-registry.js';

const message = { content: 'x', role_type: 'user', role: null, name: 'n', timestamp: '2026-01-01T00:00:00Z' } as const;
const turn = (text: string): ChatTurn => ({ id: 't', sessionId: 's-1', user: { text, timestamp: '2026-01-01T00:00:00Z' } });

function recorder(registry: GroupRegistry, logger = new RecordingLogger()) {
  const services = createPolicyServices();
  return { recorder: new GroupRecorder(services.groups, services.secretGuard, new FakeClock(), logger, registry, { tool: 'harness' }), services, logger };
}

describe('GroupRecorder', () => {
  it('titles a session by its first non-empty prompt line, cut to a preview; promotions and foreign groups carry no session', async () => {
    const registry = new InMemoryGroupRegistry();
    const { recorder: subject, services } = recorder(registry);
    const session = (await services.groups.resolve('session', { sessionId: 's-1' })) ?? '';
    const user = (await services.groups.resolve('user')) ?? '';
    const entries: OutboxEntry[] = [
      { groupId: session, message },
      { groupId: user, message },
      { groupId: 'someone-elses-group', message },
    ];
    await subject.accepted([
      { entry: entries[0] as OutboxEntry, turn: turn(`\n\n   ${'word '.repeat(40)}\nsecond line`) },
      { entry: entries[1] as OutboxEntry },
      { entry: entries[2] as OutboxEntry },
    ]);
    const records = await registry.list();
    expect(records.map((record) => record.scope).sort()).toEqual(['session', 'user']);
    const title = records.find((record) => record.scope === 'session')?.title ?? '';
    expect(title.length).toBe(TITLE_MAX_CHARS);
    expect(title.endsWith('…')).toBe(true);
    expect(records.find((record) => record.scope === 'user')).not.toHaveProperty('workspaceKey');
  });

  it('never rejects when the registry fails: it logs without content', async () => {
    const failing: GroupRegistry = {
      record: () => {
        throw new Error('disk full');
      },
      list: async () => [],
      remove: async () => undefined,
      flush: async () => undefined,
    };
    const { recorder: subject, services, logger } = recorder(failing);
    const groupId = (await services.groups.resolve('workspace')) ?? '';
    await expect(subject.accepted([{ entry: { groupId, message }, turn: turn('secret plans') }])).resolves.toBeUndefined();
    expect(logger.lines.map((line) => line.message)).toEqual(['registry: recording written groups failed']);
    expect(JSON.stringify(logger.lines)).not.toContain('secret plans');
  });
});
