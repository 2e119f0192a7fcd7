import { describe, expect, it } from 'vitest';
import type { GraphitiApi } from '../ports.js';
import { auditEntryFrom, digestWritersText, filterAuditEntries, InMemoryAuditLog, type AuditEntry } from './audit-log.js';
import { AuditedGraphitiApi } from './audited-graphiti-api.js';
import { CHAT_MODEL_DIGEST_NOTE } from '../digest/digest-writer.js';

function entry(at: string, endpoint: string): AuditEntry {
  return { at, tool: 'agent-hooks', endpoint, face: 'rest', operation: 'POST /search', groupIds: ['g'], episodeNames: [], bytes: 3, redactions: 0, kind: 'search' };
}

describe('filterAuditEntries', () => {
  const entries = [
    entry('2026-11-24T10:00:00.000Z', 'http://graphiti.internal:8000'),
    entry('2026-11-24T08:00:00.000Z', 'http://127.0.0.1:41234 (in-process emulator)'),
    entry('2026-11-24T12:00:00.000Z', 'https://other.example'),
  ];

  it('selects one endpoint however it is spelt, the label after the URL ignored', () => {
    expect(filterAuditEntries(entries, { endpoint: 'HTTP://Graphiti.Internal:8000/' }).map((found) => found.at)).toEqual(['2026-11-24T10:00:00.000Z']);
    expect(filterAuditEntries(entries, { endpoint: 'http://127.0.0.1:41234' })).toHaveLength(1);
    expect(filterAuditEntries(entries, { endpoint: 'http://nowhere.example' })).toEqual([]);
  });

  it('selects entries since a time, oldest first whatever order the tools appended them in', () => {
    expect(filterAuditEntries(entries, {}).map((found) => found.at)).toEqual(['2026-11-24T08:00:00.000Z', '2026-11-24T10:00:00.000Z', '2026-11-24T12:00:00.000Z']);
    expect(filterAuditEntries(entries, { since: Date.parse('2026-11-24T09:00:00Z') }).map((found) => found.at)).toEqual(['2026-11-24T10:00:00.000Z', '2026-11-24T12:00:00.000Z']);
  });
});

describe('auditEntryFrom', () => {
  it('reads the lines earlier versions wrote (route, one groupId) and rejects what is no entry', () => {
    expect(
      auditEntryFrom({ at: '2026-11-01T00:00:00.000Z', endpoint: 'http://h', route: 'POST /messages', groupId: 'g1', episodeNames: ['n'], bytes: 9, redactions: 1, kind: 'messages' }),
    ).toEqual({ at: '2026-11-01T00:00:00.000Z', endpoint: 'http://h', operation: 'POST /messages', groupIds: ['g1'], episodeNames: ['n'], bytes: 9, redactions: 1, kind: 'messages' });
    expect(auditEntryFrom({ at: 'x', endpoint: 'http://h', operation: 'add_memory', groupIds: [3], kind: 'messages' })).toBeUndefined();
    expect(auditEntryFrom({ at: 'x', endpoint: 'http://h', operation: 'add_memory', groupIds: [], kind: 'delete' })).toBeUndefined();
    expect(auditEntryFrom('not an entry')).toBeUndefined();
  });
});

describe('AuditedGraphitiApi', () => {
  it('names who wrote each digest a write carried (no content), and reads it back from a stored line', async () => {
    const log = new InMemoryAuditLog();
    const inner = { addMessages: async () => ({ message: 'ok', success: true }) } as unknown as GraphitiApi;
    const api = new AuditedGraphitiApi(inner, log, { endpoint: 'http://127.0.0.1:8000', tool: 'vscode-extension' });
    await api.addMessages({
      group_id: 'g',
      messages: [
        { content: 'model text', role_type: 'user', role: 'chat session', name: 'graphiti-memory.digest.s1.t0', source_description: `VS Code chat; digest of 2 turns, ${CHAT_MODEL_DIGEST_NOTE}` },
        { content: 'user: hi', role_type: 'user', role: 'chat session', name: 'graphiti-memory.digest.s2.t0', source_description: 'VS Code chat; digest of 1 turn' },
        { content: 'hi', role_type: 'user', role: 'user', name: 'graphiti-memory.turn.t9.user' },
      ],
    });
    const [entry] = log.entries;
    expect(entry?.digestWriters).toEqual({ 'graphiti-memory.digest.s1.t0': 'chatModel', 'graphiti-memory.digest.s2.t0': 'filtered' });
    expect(JSON.stringify(entry)).not.toContain('model text');
    expect(auditEntryFrom(JSON.parse(JSON.stringify(entry)))?.digestWriters).toEqual(entry?.digestWriters);
    expect(digestWritersText(entry ?? {})).toBe('2 digests: 1 by the chat model, 1 filtered');
    expect(digestWritersText({})).toBe('');
  });

  it('records nothing and fails the call as the client would when the face cannot be found (nothing left the machine)', async () => {
    const probeFailure = new Error('nothing listens at http://127.0.0.1:1');
    let sent = 0;
    const inner = {
      serverFace: () => Promise.reject(probeFailure),
      search: async () => {
        sent++;
        return { facts: [] };
      },
    } as unknown as GraphitiApi;
    const log = new InMemoryAuditLog();
    const api = new AuditedGraphitiApi(inner, log, { endpoint: 'http://127.0.0.1:1', tool: 'graphiti-harness' });
    await expect(api.search({ group_ids: ['g'], query: 'q', max_facts: 1 })).rejects.toBe(probeFailure);
    expect(sent).toBe(0);
    expect(log.entries).toEqual([]);
  });
});

describe('AuditedGraphitiApi and the structured mirror', () => {
  it('records each structure write as a mirror write (operation, group, size), never its content, and passes capabilities through', async () => {
    const log = new InMemoryAuditLog();
    const calls: string[] = [];
    const inner = {
      capabilities: async () => ({ face: 'mcp', jsonEpisodes: true, extractionInstructions: true, triplets: true, entityNodes: false }),
      addMemory: async () => (calls.push('addMemory'), { message: 'queued' }),
      addTriplet: async () => (calls.push('addTriplet'), { message: 'added', nodes: [], edges: [] }),
      addEntityNode: async () => (calls.push('addEntityNode'), {}),
      addMessages: async () => ({ message: 'ok', success: true }),
    } as unknown as GraphitiApi;
    const api = new AuditedGraphitiApi(inner, log, { endpoint: 'http://127.0.0.1:8000', tool: 'graphiti-harness' });
    await expect(api.capabilities()).resolves.toMatchObject({ triplets: true });
    await api.addTriplet({ source_node_name: 'turn:t1', edge_name: 'USES_TOOL', fact: 'turn:t1 called Read(secret-plan.md)', target_node_name: 'tool:t1:0', group_id: 'gm_mirror_x' });
    await api.addMemory({ name: 'mirror.turn.abc', episode_body: '{"text":"the plan"}', group_id: 'gm_mirror_x', source: 'json' });
    await api.addEntityNode({ uuid: 'u', group_id: 'gm_mirror_x', name: 'turn:t1', summary: 'Turn' });
    await api.addMessages({ group_id: 'gm_mirror_x', messages: [{ content: '{}', role_type: 'system', role: 'graphiti-memory mirror', name: 'mirror.turn.def' }] });
    expect(calls).toEqual(['addTriplet', 'addMemory', 'addEntityNode']);
    expect(log.entries.map((entry) => [entry.operation, entry.kind, entry.groupIds[0]])).toEqual([
      ['add_triplet', 'mirror', 'gm_mirror_x'],
      ['add_memory', 'mirror', 'gm_mirror_x'],
      ['POST /entity-node', 'mirror', 'gm_mirror_x'],
      ['POST /messages', 'mirror', 'gm_mirror_x'],
    ]);
    expect(JSON.stringify(log.entries)).not.toMatch(/secret-plan|the plan/);
    expect(log.entries.every((entry) => entry.bytes > 0)).toBe(true);
    expect(auditEntryFrom(JSON.parse(JSON.stringify(log.entries[0])))?.kind).toBe('mirror');
  });
});
