// GitHub Copilot's agent mode in VS Code (Copilot Chat): `~/.copilot/hooks/graphiti-memory.json`,
// a file of ours alone in VS Code's own format (`command` / `windows`, `timeoutSec`), which Copilot
// CLI (reading the same folder for `bash` / `powershell` entries) does not run. VS Code
// sends Claude Code's event names and snake_case fields; its transcript is Copilot's agent log in
// the workspace's storage. VS Code also runs `~/.claude/settings.json` (chat.useClaudeHooks), so
// its events may arrive through Claude Code's entries too.
import path from 'node:path';
import { nonEmpty, type AssistantDescriptor, type ContextLifetime, type Environment } from './assistant-descriptor.js';

export const COPILOT_HOOKS_FILE_NAME = 'graphiti-memory.json';

/** Copilot agent mode's transcripts live under `…/GitHub.copilot-chat/transcripts/`. */
const COPILOT_TRANSCRIPT = /[\\/]github\.copilot-chat[\\/]/i;

/**
 * Copilot's agent loop (Copilot Chat 0.67) appends SessionStart's and UserPromptSubmit's context to
 * the current turn's `additionalHookContext`, renders it into that turn's user message on every
 * request of the turn, and leaves it out of later turns' history: there it lasts one turn. Known
 * by the transcript's path, whichever hook file the event came through.
 */
export function vscodeContextLifetime(hook: { readonly transcriptPath: string | undefined }): ContextLifetime {
  return hook.transcriptPath !== undefined && COPILOT_TRANSCRIPT.test(hook.transcriptPath) ? 'turn' : 'conversation';
}

export const copilotVscode = {
  target: 'copilot',
  name: 'Copilot (VS Code agent mode)',
  hookFile: {
    path: (home) => path.join(home, '.copilot', 'hooks', COPILOT_HOOKS_FILE_NAME),
    format: { layout: 'flat', commandKeys: { posix: 'command', windows: 'windows' }, timeoutKey: 'timeoutSec', timeoutUnit: 'seconds', named: false, shared: false, agentArgument: false },
  },
  // Copilot's own (camelCase) names; VS Code maps them to Claude Code's.
  events: { SessionStart: 'sessionStart', UserPromptSubmit: 'userPromptSubmitted', Stop: 'agentStop', SessionEnd: 'sessionEnd' },
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
    formats: ['copilot-agent', 'claude-code'],
    location: '<VS Code user data>/User/workspaceStorage/<id>/GitHub.copilot-chat/transcripts/<session>.jsonl',
    finishedTurn: 'an assistant.turn_end after a message that requests no tools, or the next user.message',
    contextLifetime: vscodeContextLifetime,
  },
  // VS Code's folders (`copilot` on PATH and ~/.copilot are Copilot CLI's: copilot-cli.ts).
  detection: { homeFolders: [], homeFolderPrefixes: ['.vscode'], commands: [] },
  trust: null,
  // VS Code's own user-level mcp.json (`servers`), which Copilot's agent mode uses.
  mcp: {
    target: 'vscode',
    label: 'VS Code',
    format: 'json',
    key: 'servers',
    file: ({ home, env, platform }) => path.join(vscodeUserFolder(home, env ?? {}, platform ?? process.platform), 'mcp.json'),
    entry: ({ command, args }) => ({ type: 'stdio', command, args: [...args] }),
  },
} as const satisfies AssistantDescriptor<'copilot'>;

/** VS Code's user folder (the stable build's), as VS Code places it on each system. */
export function vscodeUserFolder(home: string, env: Environment, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Code', 'User');
  if (platform === 'win32') return path.join(nonEmpty(env['APPDATA']) ?? path.join(home, 'AppData', 'Roaming'), 'Code', 'User');
  return path.join(nonEmpty(env['XDG_CONFIG_HOME']) ?? path.join(home, '.config'), 'Code', 'User');
}
