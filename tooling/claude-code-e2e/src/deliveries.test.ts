import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { countByGroupAndName, deliveriesOf, isCapturedEpisodeName, TURN_EPISODE_NAME } from './deliveries.js';

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const message = (name: string, content: string) => ({ content, role_type: 'user', role: 'user', name, source_description: '' });

describe('deliveriesOf', () => {
  it('reads each message of accepted REST /messages bodies, and not rejected ones', async () => {
    emulator = await startEmulator();
    const send = (body: unknown) => fetch(`${emulator?.url}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await send({ group_id: 'g1', messages: [message('app.turn.t1.user', 'hi'), message('app.turn.t1.assistant', 'hello')] })).status).toBe(202);
    expect((await send({ group_id: 'g1', messages: [message('app.turn.t1.user', 'hi')] })).status).toBe(202);
    // No `role` key: a 422, so nothing was accepted for storage.
    expect((await send({ group_id: 'g1', messages: [{ content: 'x', role_type: 'user', name: 'app.turn.t2.user' }] })).status).toBe(422);

    const deliveries = deliveriesOf(emulator.requests);
    expect(deliveries.map((delivery) => delivery.name)).toEqual(['app.turn.t1.user', 'app.turn.t1.assistant', 'app.turn.t1.user']);
    expect(deliveries[1]).toEqual({ groupId: 'g1', name: 'app.turn.t1.assistant', content: 'hello' });
    expect(countByGroupAndName(deliveries).get('g1 app.turn.t1.user')).toBe(2);
  });

  it('reads MCP add_memory tool calls (also in a batch) and ignores other tools', () => {
    const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
    const base = { path: '/mcp/', query: {}, headerNames: [], status: 200, at: '', fault: null, method: 'POST' } as const;
    const deliveries = deliveriesOf([
      { ...base, route: 'add_memory', body: call('add_memory', { name: 'app.turn.t1.user', episode_body: 'hi', group_id: 'g2' }) },
      { ...base, route: 'add_memory', body: [call('add_memory', { name: 'app.turn.t1.assistant', episode_body: 'yo', group_id: 'g2' })] },
      { ...base, route: 'search_memory_facts', body: call('search_memory_facts', { query: 'hi' }) },
      { ...base, route: 'add_memory', status: 500, body: call('add_memory', { name: 'lost', episode_body: '', group_id: 'g2' }) },
    ]);
    expect(deliveries).toEqual([
      { groupId: 'g2', name: 'app.turn.t1.user', content: 'hi' },
      { groupId: 'g2', name: 'app.turn.t1.assistant', content: 'yo' },
    ]);
  });
});

describe('TURN_EPISODE_NAME', () => {
  it('matches turn messages only, not promotions or ownership context', () => {
    expect(TURN_EPISODE_NAME.test('graphiti-memory.turn.3d1d7944-22c0.user')).toBe(true);
    expect(TURN_EPISODE_NAME.test('graphiti-memory.turn.3d1d7944-22c0.assistant')).toBe(true);
    expect(isCapturedEpisodeName('graphiti-memory.digest.5f0c1e2a-0b1c.3d1d7944-22c0')).toBe(true);
    expect(isCapturedEpisodeName('graphiti-memory.turn.3d1d7944-22c0.user')).toBe(true);
    expect(isCapturedEpisodeName('graphiti-memory.decision.3d1d7944')).toBe(false);
    expect(TURN_EPISODE_NAME.test('graphiti-memory.promotion.cdf3b3d5')).toBe(false);
    expect(TURN_EPISODE_NAME.test('graphiti-memory.ownership.gm_workspace_1')).toBe(false);
  });
});
