/**
 * Transcript import: parsing only (watching files is memory-node-storage's job). Parsers never
 * throw; malformed lines are skipped and counted, a torn last line (a write in progress) is
 * skipped, and every parser returns `ChatTurn`s with stable ids, so importing a file twice dedupes.
 *
 * - `parseClaudeCodeTranscript` — Claude Code session JSONL: a turn is a real user prompt plus the
 *   assistant's work until the next prompt (id = the prompt line's `uuid`, participant
 *   `claude-code`); subagent sidechains excluded by default; `filter` (presets `full`, `compact`
 *   (default), `conversation`, or per-kind `full`/`summary`/`omit` modes) turns tool calls into
 *   `Read(src/a.ts)` lines, tool results into `→ 120 lines` and code blocks in replies into
 *   `[code: ts, 42 lines]`; `tokens` reports the reduction.
 * - `parseVsCodeChatSession` — VS Code's chat session mutation log (or the flat `.json` object):
 *   the log is replayed whole, only finished turns are kept (id = `requestId`), unknown session
 *   versions give `unsupportedVersion` and no turns; prompts and replies pass the same `filter`.
 * - `parseCopilotAgentTranscript` — Copilot agent mode's hook transcript (`transcript_path`),
 *   prompts and replies through the same `filter`.
 * - `readAgentTranscript` / `agentTranscriptFormatOf` — the transcripts assistants hand their hooks,
 *   one entry per format (`AGENT_TRANSCRIPT_FORMATS`), with the name a citation gives each.
 * - `parseJsonlTranscript` — plain `{role, content, timestamp}` lines; ids from a content hash.
 * - `detectTranscriptFormat` / `parseTranscript(text, format | 'auto')`.
 * - `createTranscriptReader(format)` — incremental `push(chunk)` / `flush()` (idle) / `end()` for
 *   watchers reading appended bytes; start a new reader when a file shrinks or is rewritten.
 */
export {
  CLAUDE_CODE_PARTICIPANT,
  ClaudeCodeTranscriptReader,
  parseClaudeCodeTranscript,
  type ClaudeCodeTranscriptOptions,
} from './claude-code-transcript.js';
export {
  AGENT_TRANSCRIPT_FORMATS,
  agentLabelOf,
  agentTranscriptFormatOf,
  readAgentTranscript,
  type AgentTranscriptFormat,
  type AgentTranscriptReadOptions,
} from './agent-transcripts.js';
export { JsonlTranscriptReader, parseJsonlTranscript, type JsonlTranscriptOptions } from './jsonl-transcript.js';
export {
  COPILOT_AGENT_PARTICIPANT,
  isCopilotAgentTranscript,
  parseCopilotAgentTranscript,
  type CopilotAgentTranscriptOptions,
  type CopilotAgentTranscriptResult,
} from './copilot-agent-transcript.js';
export {
  createTranscriptReader,
  detectTranscriptFormat,
  parseTranscript,
  type TranscriptOptions,
} from './transcript-format.js';
export {
  DEFAULT_TRANSCRIPT_FILTER,
  FILTER_KINDS,
  FILTER_MODES,
  filterTurn,
  resolveTranscriptFilter,
  transcriptFilterProblems,
  summarizeToolCall,
  summarizeToolResult,
  TRANSCRIPT_FILTER_PRESETS,
  type FilterMode,
  type TranscriptFilter,
  type TranscriptFilterOption,
  type TranscriptFilterPreset,
  type TranscriptFilterProblem,
} from './transcript-filter.js';
export {
  tokenEstimate,
  TRANSCRIPT_FORMATS,
  type TokenReduction,
  type TranscriptFormat,
  type TranscriptParseResult,
  type TranscriptReader,
} from './transcript-types.js';
export {
  parseVsCodeChatSession,
  SUPPORTED_VSCODE_CHAT_VERSIONS,
  VsCodeChatSessionReader,
  type VsCodeChatSessionOptions,
} from './vscode-chat-session.js';
