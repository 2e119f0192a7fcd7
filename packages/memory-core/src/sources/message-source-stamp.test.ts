import { describe, expect, it } from 'vitest';
import { SecretlintSecretGuard } from '../secrets/secretlint-secret-guard.js';
import { MessageSourceStamp, toolLabel } from './message-source-stamp.js';

const turn = (sessionId: string, text: string, participant?: string) => ({
  id: 't',
  sessionId,
  user: { text, timestamp: '2026-11-20T10:00:00Z' },
  ...(participant === undefined ? {} : { participant }),
});

describe('toolLabel', () => {
  it('names the agent that answered, else the tool that captured it', () => {
    expect(toolLabel('agent-hooks', 'claude-code')).toBe('Claude Code');
    expect(toolLabel('agent-hooks', 'copilot-agent')).toBe('Copilot');
    expect(toolLabel('vscode-extension', 'github.copilot.editsAgent')).toBe('VS Code chat');
    expect(toolLabel('graphiti-harness')).toBe('graphiti-harness');
  });
});

describe('MessageSourceStamp', () => {
  it("stamps a turn's entries with the tool, the session and its first prompt line, secret-guarded", async () => {
    const stamp = new MessageSourceStamp(new SecretlintSecretGuard(), { tool: 'agent-hooks' });
    const key = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const entries = await stamp.stamp(
      [{ groupId: 'g', message: { content: 'x', role_type: 'user', role: 'user', name: 'n' } }],
      turn('s1', `\n  Use token ${key} to deploy\nsecond line`, 'claude-code'),
    );
    expect(entries[0]?.source?.tool).toBe('Claude Code');
    expect(entries[0]?.source?.session).toBe('s1');
    expect(entries[0]?.source?.title).toMatch(/^Use token .+ to deploy$/);
    expect(entries[0]?.source?.title).not.toContain(key);
    // The session keeps its first line as its title; an entry that has a source keeps it.
    const later = await stamp.stamp(
      [
        { groupId: 'g', message: { content: 'y', role_type: 'user', role: 'user', name: 'm' } },
        { groupId: 'g', message: { content: 'z', role_type: 'user', role: 'user', name: 'o' }, source: { tool: 'VS Code chat' } },
      ],
      turn('s1', 'A later question'),
    );
    expect(later.map((entry) => [entry.source?.tool, entry.source?.title])).toEqual([
      ['agent hooks', entries[0]?.source?.title],
      ['VS Code chat', undefined],
    ]);
  });
});
