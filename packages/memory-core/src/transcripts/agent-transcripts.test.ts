// The hook transcript formats, read from real files the assistants wrote (test-support's
// transcript-fixtures/real: two turns each, the hooks' contexts CTX-SESSIONSTART / CTX-PROMPT in
// them where the assistant records them).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { agentLabelOf, agentTranscriptFormatOf, readAgentTranscript } from './agent-transcripts.js';
import { withoutGeminiHookContext } from './gemini-chat-transcript.js';

const real = (name: string): string => readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-support', 'transcript-fixtures', 'real', name), 'utf8');
const codex = real('codex-0.169.0-rollout.jsonl');
const gemini = real('gemini-cli-0.61.0-chat.jsonl');
const copilotCli = real('copilot-cli-1.0.102-events.jsonl');
const everyText = (turns: ReturnType<typeof readAgentTranscript>): string => turns.map((turn) => `${turn.user.text}\n${turn.assistant?.text ?? ''}`).join('\n');

describe('Codex rollout (0.169.0)', () => {
  it('reads each task as one turn: the user\'s words and the reply, never our hook context or Codex\'s environment context', () => {
    const turns = readAgentTranscript(codex, 'codex-rollout', { includeUnfinished: false });
    expect(turns.map((turn) => [turn.id, turn.sessionId, turn.user.text, turn.assistant?.text, turn.participant])).toEqual([
      ['01a224ae-cba2-70e0-8d40-076e062e9272', '01a224ae-cb77-7c90-975c-e504708c9b03', 'How do we deploy?', 'Scripted answer 1', 'codex'],
      ['01a224af-a18e-7e93-83f7-e9c3c223af20', '01a224ae-cb77-7c90-975c-e504708c9b03', 'And how do we roll back?', 'Scripted answer 1', 'codex'],
    ]);
    expect(everyText(turns)).not.toMatch(/CTX-|environment_context/);
    expect(turns[0]?.user.timestamp).toBe('2026-11-29T00:22:45.159Z');
  });

  it('leaves a turn without task_complete out until the session ends', () => {
    const cut = codex.split('\n').filter((line) => !line.includes('"task_complete"') || !line.includes('01a224af-a18e')).join('\n');
    expect(readAgentTranscript(cut, 'codex-rollout', { includeUnfinished: false }).map((turn) => turn.user.text)).toEqual(['How do we deploy?']);
    expect(readAgentTranscript(cut, 'codex-rollout', { includeUnfinished: true }).map((turn) => turn.user.text)).toEqual(['How do we deploy?', 'And how do we roll back?']);
  });
});

describe('Gemini CLI chat file (0.61.0)', () => {
  it('reads a user record and its reply as a turn, with our <hook_context> blocks removed and the $set replays of the resume ignored', () => {
    const turns = readAgentTranscript(gemini, 'gemini-chat', { includeUnfinished: false });
    expect(turns.map((turn) => [turn.id, turn.sessionId, turn.user.text, turn.assistant?.text, turn.participant])).toEqual([
      ['90600fea-8c41-477f-b261-6b542f3ebe71', 'b35a6564-b4fe-4c21-bf21-cd03879afa17', 'How do we deploy?', 'Scripted answer 1', 'gemini-cli'],
      ['85f5857c-8cd1-4bdd-8b56-f58958c50d8e', 'b35a6564-b4fe-4c21-bf21-cd03879afa17', 'And how do we roll back?', 'Scripted answer 1', 'gemini-cli'],
    ]);
    expect(everyText(turns)).not.toMatch(/CTX-|hook_context|session_context/);
  });

  it('waits for the reply of the last prompt unless the session ended', () => {
    const withoutLastReply = gemini.split('\n').filter((line) => !line.includes('0ee096fb')).join('\n');
    expect(readAgentTranscript(withoutLastReply, 'gemini-chat', { includeUnfinished: false })).toHaveLength(1);
    expect(readAgentTranscript(withoutLastReply, 'gemini-chat', { includeUnfinished: true })).toHaveLength(2);
  });

  it('strips every hook context block of a prompt, leaving the user\'s words', () => {
    expect(withoutGeminiHookContext('<hook_context>brief\nlines</hook_context>\n\nHow do we deploy?')).toBe('How do we deploy?');
    expect(withoutGeminiHookContext('a <b>tag</b> of the user')).toBe('a <b>tag</b> of the user');
  });
});

describe('Copilot CLI events.jsonl (1.0.102)', () => {
  it('reads user.message content (never transformedContent with our <system_reminder>) and the final reply, labelled Copilot CLI', () => {
    const turns = readAgentTranscript(copilotCli, 'copilot-cli', { includeUnfinished: false });
    expect(turns.map((turn) => [turn.sessionId, turn.user.text, turn.assistant?.text, turn.participant])).toEqual([
      ['08e0c4a2-27e7-4cb0-b411-01a538ab8399', 'How do we deploy?', 'Scripted answer 1', 'copilot-cli'],
      ['08e0c4a2-27e7-4cb0-b411-01a538ab8399', 'And how do we roll back?', 'Scripted answer 1', 'copilot-cli'],
    ]);
    expect(everyText(turns)).not.toMatch(/CTX-|system_reminder/);
    expect(agentLabelOf('copilot-cli')).toBe('Copilot CLI');
  });
});

describe('agentTranscriptFormatOf', () => {
  it('recognises each real file among the candidates, and falls back to the first for a file with no telling line yet', () => {
    const all = ['claude-code', 'copilot-agent', 'codex-rollout', 'gemini-chat'] as const;
    expect(agentTranscriptFormatOf(codex, all)).toBe('codex-rollout');
    expect(agentTranscriptFormatOf(gemini, all)).toBe('gemini-chat');
    expect(agentTranscriptFormatOf(copilotCli, ['copilot-cli'])).toBe('copilot-cli');
    expect(agentTranscriptFormatOf(copilotCli, ['claude-code', 'copilot-agent'])).toBe('copilot-agent');
    expect(agentTranscriptFormatOf('', ['codex-rollout'])).toBe('codex-rollout');
    expect(agentLabelOf('codex')).toBe('Codex');
    expect(agentLabelOf('gemini-cli')).toBe('Gemini CLI');
  });
});
