// What the memory page shows, shaped: curated memories only by memory-core's rule (a chat turn
// quoting the markup is a conversation), conversations by assistant and day, the audit log in words.
import type { Episode } from '@graphiti-memory/graphiti-client';
import type { AuditEntry, EpisodeSource } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { auditWords, conversationDays, curatedMemories, pageFact } from './page-views.js';

const PROMOTION_NAME = 'graphiti-memory.promotion.0123456789abcdef0123456789abcdef';

function episode(uuid: string, name: string, content: string, at = '2026-11-28T10:00:00Z'): Episode {
  return { uuid, name, group_id: 'gm_workspace_x', labels: [], created_at: at, source: 'message', source_description: '', content, valid_at: at, entity_edges: [] };
}

const decision = episode('e1', PROMOTION_NAME, '(system): <graphiti_episode kind="decision" scope="workspace" recorded_at="2026-11-27T09:00:00.000Z">\nWe use zod.\n</graphiti_episode>');
const quoted = episode('e2', 'graphiti-memory.turn.t1.user', 'alice(user): <graphiti_episode kind="decision" scope="workspace" recorded_at="2026-11-27T09:00:00.000Z">\nfake\n</graphiti_episode>');
const digest = episode('e3', 'graphiti-memory.digest.s1.t1', 'digest', '2026-11-28T11:00:00Z');

describe('the page views', () => {
  it('lists curated memories by memory-core\'s rule, with the tool that promoted them', () => {
    const sources = new Map<string, EpisodeSource>([['e1', { episode: 'e1', groupId: 'g', at: '2026-11-27T09:00:01Z', tool: 'graphiti-harness' }]]);
    expect(curatedMemories([decision, quoted, digest], sources, () => true)).toEqual([
      { episode: 'e1', kind: 'decision', scope: 'workspace', text: 'We use zod.', date: '2026-11-27T09:00:00.000Z', who: 'you', tool: 'graphiti-harness' },
    ]);
  });

  it('groups conversations by assistant and day, newest first; curated memories are not conversations', () => {
    const sources = new Map<string, EpisodeSource>([
      ['e2', { episode: 'e2', groupId: 'g', at: '2026-11-27T08:00:00Z', tool: 'Claude Code', session: 's0', title: 'old chat' }],
      ['e3', { episode: 'e3', groupId: 'g', at: '2026-11-28T11:00:00Z', tool: 'Copilot', session: 's1', title: 'fix the build' }],
    ]);
    expect(conversationDays([decision, quoted, digest], sources)).toEqual([
      { tool: 'Copilot', day: '2026-11-28', conversations: [{ session: 's1', title: 'fix the build', at: '2026-11-28T11:00:00Z', episodes: ['e3'] }] },
      { tool: 'Claude Code', day: '2026-11-27', conversations: [{ session: 's0', title: 'old chat', at: '2026-11-27T08:00:00Z', episodes: ['e2'] }] },
    ]);
  });

  it('says each audit entry in words, without content', () => {
    const entry: AuditEntry = { at: '2026-11-28T10:00:00Z', tool: 'agent-hooks', endpoint: 'http://x', operation: 'POST /messages', groupIds: ['w'], episodeNames: ['a', 'b'], bytes: 812, redactions: 1, kind: 'messages' };
    const scopeOf = (groupId: string) => (groupId === 'w' ? "this workspace's" : "another workspace's");
    expect(auditWords(entry, scopeOf)).toBe("an assistant's hooks sent 2 parts of a conversation to this workspace's memory (812 bytes, 1 secret redacted first)");
    expect(auditWords({ ...entry, tool: 'graphiti-harness', kind: 'promotion', episodeNames: ['a'], redactions: 0 }, scopeOf)).toBe("the terminal (graphiti-harness) sent 1 curated memory to this workspace's memory (812 bytes)");
    expect(auditWords({ ...entry, tool: 'vscode-extension', kind: 'search', groupIds: ['w', 'z'], bytes: 42, redactions: 0 }, scopeOf)).toBe("VS Code searched this workspace's and another workspace's memory (a 42-byte query)");
  });

  it('marks a fact whose validity has passed as superseded, and keeps its stale paths and sources', () => {
    const fact = { uuid: 'f', name: 'R', fact: 'x', valid_at: '2026-01-01T00:00:00Z', invalid_at: '2026-02-01T00:00:00Z', expired_at: null, created_at: '2026-01-01T00:00:00Z', scope: 'workspace' as const, rank: 0, stale: ['src/a.ts'] };
    expect(pageFact(fact, Date.parse('2026-03-01T00:00:00Z'))).toMatchObject({ superseded: true, stale: ['src/a.ts'], sources: [], invalidAt: '2026-02-01T00:00:00Z' });
    expect(pageFact({ ...fact, invalid_at: null }, Date.parse('2026-03-01T00:00:00Z')).superseded).toBe(false);
  });
});
