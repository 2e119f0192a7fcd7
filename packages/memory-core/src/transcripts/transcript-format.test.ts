import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_TRANSCRIPT } from '../../test-support/transcript-fixtures/claude-code-session.js';
import { JSONL_TRANSCRIPT } from '../../test-support/transcript-fixtures/jsonl-transcript.js';
import { VSCODE_CHAT_FLAT_JSON, VSCODE_CHAT_LOG } from '../../test-support/transcript-fixtures/vscode-chat-session.js';
import { createTranscriptReader, detectTranscriptFormat, parseTranscript, type TranscriptFormat } from './index.js';

describe('detectTranscriptFormat', () => {
  it('recognises each format by content', () => {
    expect(detectTranscriptFormat(CLAUDE_CODE_TRANSCRIPT)).toBe('claude-code');
    expect(detectTranscriptFormat(VSCODE_CHAT_LOG)).toBe('vscode-chat');
    expect(detectTranscriptFormat(VSCODE_CHAT_FLAT_JSON)).toBe('vscode-chat');
    expect(detectTranscriptFormat(JSONL_TRANSCRIPT)).toBe('jsonl');
  });

  it('uses the path as a hint and returns undefined for anything else', () => {
    expect(detectTranscriptFormat('', '/home/ada/.config/Code/User/workspaceStorage/abc/chatSessions/s.jsonl')).toBe('vscode-chat');
    expect(detectTranscriptFormat('', 'C:\\Users\\ada\\.claude\\projects\\-home-ada\\s.jsonl')).toBe('claude-code');
    expect(detectTranscriptFormat('')).toBeUndefined();
    expect(detectTranscriptFormat('hello\nworld')).toBeUndefined();
    expect(detectTranscriptFormat('{"a":1}\n[1]\n')).toBeUndefined();
  });
});

describe('parseTranscript', () => {
  it('parses with the detected parser, or returns undefined', () => {
    expect(parseTranscript(CLAUDE_CODE_TRANSCRIPT, 'auto')?.turns).toHaveLength(3);
    expect(parseTranscript(VSCODE_CHAT_LOG, 'auto')?.turns).toHaveLength(3);
    expect(parseTranscript(JSONL_TRANSCRIPT, 'auto', { sessionId: 's' })?.turns).toHaveLength(4);
    expect(parseTranscript('nothing', 'auto')).toBeUndefined();
    expect(parseTranscript(CLAUDE_CODE_TRANSCRIPT, 'jsonl')?.turns).toEqual([]);
  });
});

describe('createTranscriptReader', () => {
  it('creates a reader per format and refuses unknown formats', () => {
    for (const format of ['claude-code', 'vscode-chat', 'jsonl'] as const) expect(createTranscriptReader(format).format).toBe(format);
    expect(() => createTranscriptReader('yaml' as TranscriptFormat)).toThrow(/unknown format "yaml"/);
  });
});
