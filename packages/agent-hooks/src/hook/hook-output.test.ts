import { describe, expect, it } from 'vitest';
import { hookOutput } from './hook-output.js';

describe('hookOutput', () => {
  it('prints Claude Code\'s shape, naming the event as the input did, with a systemMessage beside it', () => {
    expect(JSON.parse(hookOutput({ event: 'UserPromptSubmit', assistant: 'claude', hostEvent: 'UserPromptSubmit' }, { context: 'facts', systemMessage: 'told' }) ?? '')).toEqual({
      systemMessage: 'told',
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'facts' },
    });
  });

  it('reads an event without an assistant as Claude Code\'s (lines written before --agent)', () => {
    expect(hookOutput({ event: 'SessionStart' }, { context: 'brief' })).toBe(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'brief' } })}\n`);
  });

  it('prints nothing when there is nothing to say, or for an event whose context the assistant does not read', () => {
    expect(hookOutput({ event: 'UserPromptSubmit', assistant: 'claude' }, {})).toBeUndefined();
    expect(hookOutput({ event: 'Stop', assistant: 'claude' }, { context: 'never read' })).toBeUndefined();
  });
});
