// Anthropic's Claude Code: `~/.claude/settings.json`, shared with the user's own settings (merged,
// every other key and hook kept). Snake_case input naming its event; Stop names the reply it
// stopped with (`last_assistant_message`), which its lazily written transcript may not hold yet.
// VS Code's Copilot runs this file too (chat.useClaudeHooks): its events carry Copilot's transcript.
import path from 'node:path';
import { nonEmpty, type AssistantDescriptor } from './assistant-descriptor.js';
import { vscodeContextLifetime } from './copilot-vscode.js';

export const claudeCode = {
  target: 'claude',
  name: 'Claude Code',
  hookFile: {
    path: (home) => path.join(home, '.claude', 'settings.json'),
    format: { layout: 'grouped', commandKeys: { posix: 'command', windows: null }, timeoutKey: 'timeout', timeoutUnit: 'seconds', named: false, shared: true, agentArgument: false },
  },
  events: { SessionStart: 'SessionStart', UserPromptSubmit: 'UserPromptSubmit', Stop: 'Stop', SessionEnd: 'SessionEnd' },
  timeoutSeconds: { SessionStart: 10, UserPromptSubmit: 10, Stop: 15, SessionEnd: 15 },
  startsBesidePrompt: false,
  input: {
    fieldCase: 'snake_case',
    eventName: ['hook_event_name', 'hookEventName'],
    sessionId: ['session_id', 'sessionId'],
    transcriptPath: ['transcript_path', 'transcriptPath'],
    transcriptPathOn: ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd'],
    transcriptPathOf: null,
    cwd: ['cwd'],
    prompt: ['prompt'],
    lastReply: ['last_assistant_message'],
    ownContextTags: [],
  },
  output: { shape: 'hook-specific', contextOn: ['SessionStart', 'UserPromptSubmit'], systemMessage: true },
  transcript: {
    formats: ['claude-code', 'copilot-agent'],
    location: '~/.claude/projects/<project>/<session>.jsonl',
    finishedTurn: 'an assistant line with a terminal stop_reason (end_turn, stop_sequence, max_tokens, refusal), or the next prompt; Stop names the reply',
    // Claude Code keeps SessionStart's and UserPromptSubmit's context in the conversation; VS Code's Copilot, one turn.
    contextLifetime: vscodeContextLifetime,
  },
  detection: { homeFolders: ['.claude'], homeFolderPrefixes: [], commands: ['claude'] },
  trust: null,
  // Claude Code's user scope: `mcpServers` at the root of ~/.claude.json (or $CLAUDE_CONFIG_DIR/.claude.json).
  mcp: {
    target: 'claude',
    label: 'Claude Code',
    format: 'json',
    key: 'mcpServers',
    file: ({ home, env }) => path.join(nonEmpty(env?.['CLAUDE_CONFIG_DIR']) ?? home, '.claude.json'),
    entry: ({ command, args }) => ({ type: 'stdio', command, args: [...args] }),
  },
} as const satisfies AssistantDescriptor<'claude'>;
