// GitHub's Copilot CLI (checked with 1.0.102): user-level `~/.copilot/hooks/*.json`; ours is
// `graphiti-memory-cli.json`, a file of ours alone: `{"version": 1, "hooks": {"sessionStart":
// [{"type": "command", "bash": …, "powershell": …, "timeoutSec": N}], …}}`. Its input is camelCase
// and names no event (the event comes from our command line's `--event`); only agentStop carries
// `transcriptPath` (`~/.copilot/session-state/<session>/events.jsonl`, where the others' sessions
// are too). It reads a flat `{"additionalContext": …}` only.
// VS Code reads the same folder, and runs `bash` entries too (it maps them to its linux/osx
// commands): there our lines get VS Code's Claude-shaped input, and the runner reads it as VS
// Code's (hook-input.ts), so each assistant gets its own shape; one-event-once keeps VS Code from
// answering twice. Copilot CLI does not run VS Code's `command` entries, and if it did, their
// camelCase input without an event name would be read as Copilot CLI's.
import path from 'node:path';
import type { AssistantDescriptor } from './assistant-descriptor.js';

export const COPILOT_CLI_HOOKS_FILE_NAME = 'graphiti-memory-cli.json';

export const copilotCli = {
  target: 'copilot-cli',
  name: 'Copilot CLI',
  hookFile: {
    path: (home) => path.join(home, '.copilot', 'hooks', COPILOT_CLI_HOOKS_FILE_NAME),
    format: { layout: 'flat', commandKeys: { posix: 'bash', windows: 'powershell' }, timeoutKey: 'timeoutSec', timeoutUnit: 'seconds', named: false, shared: false, agentArgument: true },
  },
  events: { SessionStart: 'sessionStart', UserPromptSubmit: 'userPromptSubmitted', Stop: 'agentStop', SessionEnd: 'sessionEnd' },
  timeoutSeconds: { SessionStart: 10, UserPromptSubmit: 10, Stop: 15, SessionEnd: 15 },
  // Seen in its events.jsonl: sessionStart and userPromptSubmitted start within 2 s and overlap.
  startsBesidePrompt: true,
  input: {
    fieldCase: 'camelCase',
    eventName: [],
    sessionId: ['sessionId'],
    transcriptPath: ['transcriptPath'],
    transcriptPathOn: ['Stop'],
    transcriptPathOf: (home, sessionId) => copilotCliTranscript(home, sessionId),
    cwd: ['cwd'],
    prompt: ['prompt'],
    lastReply: [],
    ownContextTags: [],
  },
  output: { shape: 'flat', contextOn: ['SessionStart', 'UserPromptSubmit'], systemMessage: false },
  transcript: {
    formats: ['copilot-cli'],
    location: '~/.copilot/session-state/<session>/events.jsonl',
    finishedTurn: 'an assistant.turn_end after a message that requests no tools, or the next user.message',
    // sessionStart's context is a user message of its own, userPromptSubmitted's part of the prompt: both stay in the history.
    contextLifetime: () => 'conversation',
  },
  detection: { homeFolders: ['.copilot'], homeFolderPrefixes: [], commands: ['copilot'] },
  trust: null,
  // Not offered: its MCP configuration was not checked against the pinned client.
  mcp: null,
} as const satisfies AssistantDescriptor<'copilot-cli'>;

/** Where Copilot CLI keeps a session's events (for events that do not name it: sessionEnd). */
export function copilotCliTranscript(home: string, sessionId: string): string | undefined {
  return /^[A-Za-z0-9-]+$/.test(sessionId) ? path.join(home, '.copilot', 'session-state', sessionId, 'events.jsonl') : undefined;
}
