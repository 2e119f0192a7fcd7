// Google's Gemini CLI (checked with 0.61.0): `~/.gemini/settings.json` `hooks`, in Claude Code's
// grouped layout, each entry named, timeouts in milliseconds, shared with the user's settings
// (merged). Its events: SessionStart, BeforeAgent (the prompt), AfterAgent (the turn end: `prompt`
// and `prompt_response`), SessionEnd. Context as `hookSpecificOutput.additionalContext` (a flat
// one is ignored). Gemini puts SessionStart's context into the prompt as
// `<hook_context>…</hook_context>` (BeforeAgent's `prompt` carries it too): removed before recall
// searches the prompt, and by the chat reader before anything is captured.
import path from 'node:path';
import type { AssistantDescriptor } from './assistant-descriptor.js';

export const geminiCli = {
  target: 'gemini',
  name: 'Gemini CLI',
  hookFile: {
    path: (home) => path.join(home, '.gemini', 'settings.json'),
    format: { layout: 'grouped', commandKeys: { posix: 'command', windows: null }, timeoutKey: 'timeout', timeoutUnit: 'milliseconds', named: true, shared: true, agentArgument: true },
  },
  events: { SessionStart: 'SessionStart', UserPromptSubmit: 'BeforeAgent', Stop: 'AfterAgent', SessionEnd: 'SessionEnd' },
  timeoutSeconds: { SessionStart: 10, UserPromptSubmit: 10, Stop: 15, SessionEnd: 15 },
  startsBesidePrompt: false,
  input: {
    fieldCase: 'snake_case',
    eventName: ['hook_event_name'],
    sessionId: ['session_id'],
    transcriptPath: ['transcript_path'],
    transcriptPathOn: ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd'],
    transcriptPathOf: null,
    cwd: ['cwd'],
    prompt: ['prompt'],
    lastReply: ['prompt_response'],
    ownContextTags: ['hook_context'],
  },
  output: { shape: 'hook-specific', contextOn: ['SessionStart', 'UserPromptSubmit'], systemMessage: true },
  transcript: {
    formats: ['gemini-chat'],
    location: '~/.gemini/tmp/<project folder name>/chats/session-<time>-<id8>.jsonl',
    finishedTurn: 'a user record followed by a gemini reply (or by the next user record); AfterAgent names the reply (prompt_response)',
    // Both contexts are parts of the user turn, kept in the chat's history.
    contextLifetime: () => 'conversation',
  },
  detection: { homeFolders: ['.gemini'], homeFolderPrefixes: [], commands: ['gemini'] },
  trust: null,
  mcp: {
    target: 'gemini',
    label: 'Gemini CLI',
    format: 'json',
    key: 'mcpServers',
    file: ({ home }) => path.join(home, '.gemini', 'settings.json'),
    entry: ({ command, args }) => ({ command, args: [...args] }),
  },
} as const satisfies AssistantDescriptor<'gemini'>;
