// OpenAI's Codex CLI (checked with 0.169.0): `$CODEX_HOME/hooks.json` (default `~/.codex`), in
// Claude Code's grouped layout and shared with the user's own hooks (merged). Snake_case input
// naming its event; Stop names the reply (`last_assistant_message`). Context only as
// `hookSpecificOutput` — any other shape counts as a failed hook — and only for SessionStart and
// UserPromptSubmit. 0.169.0 also fires SessionEnd, clamping its timeout to 3 s: the capture there
// must hand off fast (it only writes the outbox). Codex skips hooks the user has not trusted,
// silently: the install records Codex's own trust (codex-hook-trust.ts).
import path from 'node:path';
import type { AssistantDescriptor } from './assistant-descriptor.js';
import { CODEX_TRUST_STEP, codexHome } from './codex-home.js';

export const codex = {
  target: 'codex',
  name: 'Codex',
  hookFile: {
    path: (home, env) => path.join(codexHome(home, env), 'hooks.json'),
    format: { layout: 'grouped', commandKeys: { posix: 'command', windows: null }, timeoutKey: 'timeout', timeoutUnit: 'seconds', named: false, shared: true, agentArgument: true },
  },
  events: { SessionStart: 'SessionStart', UserPromptSubmit: 'UserPromptSubmit', Stop: 'Stop', SessionEnd: 'SessionEnd' },
  timeoutSeconds: { SessionStart: 10, UserPromptSubmit: 10, Stop: 15, SessionEnd: 3 },
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
    lastReply: ['last_assistant_message'],
    ownContextTags: [],
  },
  output: { shape: 'hook-specific', contextOn: ['SessionStart', 'UserPromptSubmit'], systemMessage: true },
  transcript: {
    formats: ['codex-rollout'],
    location: '$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl',
    finishedTurn: 'an event_msg task_complete of the turn (task_started opens it); Stop names the reply',
    // Both contexts are developer messages kept in the thread's history.
    contextLifetime: () => 'conversation',
  },
  detection: { homeFolders: ['.codex'], homeFolderPrefixes: [], commands: ['codex'] },
  // The key and hash Codex persists: codex-hook-trust.ts.
  trust: { step: 'codex-hooks-state', manualStep: CODEX_TRUST_STEP },
  // A `[mcp_servers.<name>]` table in $CODEX_HOME/config.toml.
  mcp: {
    target: 'codex',
    label: 'Codex',
    format: 'toml',
    key: 'mcp_servers',
    file: ({ home, env }) => path.join(codexHome(home, env ?? {}), 'config.toml'),
    entry: ({ command, args }) => ({ command, args: [...args] }),
  },
} as const satisfies AssistantDescriptor<'codex'>;
