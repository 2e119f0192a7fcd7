// Each assistant's input as the real CLIs sent it (h-clients' logging hooks: Codex 0.169.0,
// Gemini CLI 0.61.0, Copilot CLI 1.0.102), read through its descriptor.
import { describe, expect, it } from 'vitest';
import { parseHookInput } from './hook-input.js';
import { hookOutput } from './hook-output.js';

const codexStop = { session_id: '01a224ae', turn_id: 't1', transcript_path: '/home/user/.codex/sessions/2026/11/29/rollout-x.jsonl', cwd: '/home/user/deploy-demo', hook_event_name: 'Stop', model: 'gpt-test', permission_mode: 'bypassPermissions', stop_hook_active: false, last_assistant_message: 'Scripted answer 1' };

describe('parseHookInput through the descriptors', () => {
  it('Codex: snake_case naming its event; Stop names the reply; its output is hookSpecificOutput with its own event name and nothing else', () => {
    const read = parseHookInput(JSON.stringify(codexStop), 'Stop', 'codex');
    expect(read).toMatchObject({ ok: true, hook: { event: 'Stop', assistant: 'codex', sessionId: '01a224ae', transcriptPath: codexStop.transcript_path, lastAssistantMessage: 'Scripted answer 1' } });
    const prompt = parseHookInput(JSON.stringify({ ...codexStop, hook_event_name: 'UserPromptSubmit', prompt: 'How do we deploy?' }), 'UserPromptSubmit', 'codex');
    expect(prompt.ok && hookOutput(prompt.hook, { context: 'facts' })).toBe(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'facts' } })}\n`);
  });

  it('Gemini CLI: BeforeAgent is the prompt, with our SessionStart context removed from it; AfterAgent the turn end with prompt_response', () => {
    const base = { session_id: 'b35a6564', transcript_path: '/home/user/.gemini/tmp/deploy-demo/chats/session-x.jsonl', cwd: '/home/user/deploy-demo', timestamp: '2026-11-29T00:23:13.238Z' };
    const before = parseHookInput(JSON.stringify({ ...base, hook_event_name: 'BeforeAgent', prompt: '<hook_context>Graphiti memory brief: we deploy with make ship</hook_context>\n\nHow do we deploy?' }), 'UserPromptSubmit', 'gemini');
    expect(before).toMatchObject({ ok: true, hook: { event: 'UserPromptSubmit', hostEvent: 'BeforeAgent', prompt: 'How do we deploy?' } });
    expect(before.ok && hookOutput(before.hook, { context: 'facts' })).toBe(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'facts' } })}\n`);
    const after = parseHookInput(JSON.stringify({ ...base, hook_event_name: 'AfterAgent', prompt: 'How do we deploy?', prompt_response: 'Scripted answer 1', stop_hook_active: false }), 'Stop', 'gemini');
    expect(after).toMatchObject({ ok: true, hook: { event: 'Stop', lastAssistantMessage: 'Scripted answer 1' } });
    // A prompt that is nothing but our context leaves nothing to search.
    const onlyOurs = parseHookInput(JSON.stringify({ ...base, hook_event_name: 'BeforeAgent', prompt: '<hook_context>brief</hook_context>' }), 'UserPromptSubmit', 'gemini');
    expect(onlyOurs.ok && onlyOurs.hook.prompt).toBe('');
  });

  it('Copilot CLI: camelCase without an event name (the command line names it); a flat additionalContext out', () => {
    const prompt = parseHookInput(JSON.stringify({ sessionId: '08e0c4a2', timestamp: 1795911808582, cwd: '/home/user/deploy-demo', prompt: 'How do we deploy?' }), 'UserPromptSubmit', 'copilot-cli');
    expect(prompt).toMatchObject({ ok: true, hook: { event: 'UserPromptSubmit', assistant: 'copilot-cli', sessionId: '08e0c4a2', prompt: 'How do we deploy?' } });
    expect(prompt.ok && hookOutput(prompt.hook, { context: 'facts', systemMessage: 'never shown there' })).toBe(`${JSON.stringify({ additionalContext: 'facts' })}\n`);
    const stop = parseHookInput(JSON.stringify({ sessionId: '08e0c4a2', timestamp: 1, cwd: '/w', transcriptPath: '/home/user/.copilot/session-state/08e0c4a2/events.jsonl', stopReason: 'end_turn', stop_hook_active: false }), 'Stop', 'copilot-cli');
    expect(stop).toMatchObject({ ok: true, hook: { event: 'Stop', transcriptPath: '/home/user/.copilot/session-state/08e0c4a2/events.jsonl' } });
  });

  it("reads each assistant's input as its own when one runs the other's file (VS Code runs Copilot CLI's bash entries)", () => {
    const fromVsCode = parseHookInput(JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt: 'hi', transcript_path: '/x/GitHub.copilot-chat/transcripts/s.jsonl' }), 'UserPromptSubmit', 'copilot-cli');
    expect(fromVsCode).toMatchObject({ ok: true, hook: { assistant: 'claude', sessionId: 's' } });
    expect(fromVsCode.ok && hookOutput(fromVsCode.hook, { context: 'facts' })).toContain('hookSpecificOutput');
    const fromCopilotCli = parseHookInput(JSON.stringify({ sessionId: 's', cwd: '/w', prompt: 'hi' }), 'UserPromptSubmit');
    expect(fromCopilotCli).toMatchObject({ ok: true, hook: { assistant: 'copilot-cli', event: 'UserPromptSubmit' } });
  });

  it('refuses a command line naming no registered assistant', () => {
    expect(parseHookInput('{}', 'Stop', 'nobody')).toEqual({ ok: false, reason: 'unknown-agent' });
  });
});
