// The transcripts coding assistants hand their hooks (`transcript_path`), one entry per format:
// how it is recognised, how its finished turns are read, and who answered in it (the participant
// recorded on its turns and the name a citation gives it). Each assistant's descriptor (in
// agent-hooks) names the formats its hook events may carry; this list is where they are read.
import type { ChatTurn } from '../ports.js';
import { CLAUDE_CODE_PARTICIPANT, parseClaudeCodeTranscript } from './claude-code-transcript.js';
import { COPILOT_AGENT_PARTICIPANT, isCopilotAgentTranscript, parseCopilotAgentTranscript } from './copilot-agent-transcript.js';
import { CODEX_PARTICIPANT, isCodexRollout, parseCodexRollout } from './codex-rollout-transcript.js';
import { GEMINI_CLI_PARTICIPANT, isGeminiChat, parseGeminiChat } from './gemini-chat-transcript.js';
import type { TranscriptFilterOption } from './transcript-filter.js';
import { detectTranscriptFormat } from './transcript-format.js';

export const COPILOT_CLI_PARTICIPANT = 'copilot-cli';

export const AGENT_TRANSCRIPT_FORMATS = ['claude-code', 'copilot-agent', 'codex-rollout', 'gemini-chat', 'copilot-cli'] as const;
export type AgentTranscriptFormat = (typeof AGENT_TRANSCRIPT_FORMATS)[number];

export interface AgentTranscriptReadOptions {
  /** Session id for turns whose lines carry none. */
  readonly sessionId?: string | undefined;
  readonly filter?: TranscriptFilterOption | undefined;
  /** The session ended: its last turn counts as finished however it ended. */
  readonly includeUnfinished: boolean;
}

interface AgentTranscriptEntry {
  /** The participant recorded on the turns read from it. */
  readonly participant: string;
  /** How a citation names the assistant that answered. */
  readonly label: string;
  recognises(text: string): boolean;
  read(text: string, options: AgentTranscriptReadOptions): ChatTurn[];
}

function withOptions(options: AgentTranscriptReadOptions): { sessionId?: string; filter?: TranscriptFilterOption; includeUnfinished: boolean } {
  return {
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    ...(options.filter === undefined ? {} : { filter: options.filter }),
    includeUnfinished: options.includeUnfinished,
  };
}

const ENTRIES: Readonly<Record<AgentTranscriptFormat, AgentTranscriptEntry>> = {
  'claude-code': {
    participant: CLAUDE_CODE_PARTICIPANT,
    label: 'Claude Code',
    recognises: (text) => detectTranscriptFormat(text) === 'claude-code',
    read: (text, options) => parseClaudeCodeTranscript(text, withOptions(options)).turns,
  },
  'copilot-agent': {
    participant: COPILOT_AGENT_PARTICIPANT,
    label: 'Copilot',
    recognises: isCopilotAgentTranscript,
    read: (text, options) => parseCopilotAgentTranscript(text, withOptions(options)).turns,
  },
  'codex-rollout': {
    participant: CODEX_PARTICIPANT,
    label: 'Codex',
    recognises: isCodexRollout,
    read: (text, options) => parseCodexRollout(text, withOptions(options)),
  },
  'gemini-chat': {
    participant: GEMINI_CLI_PARTICIPANT,
    label: 'Gemini CLI',
    recognises: isGeminiChat,
    read: (text, options) => parseGeminiChat(text, withOptions(options)),
  },
  // Copilot CLI's events.jsonl is Copilot's agent log (the same lines VS Code's Copilot writes).
  'copilot-cli': {
    participant: COPILOT_CLI_PARTICIPANT,
    label: 'Copilot CLI',
    recognises: isCopilotAgentTranscript,
    read: (text, options) => parseCopilotAgentTranscript(text, { ...withOptions(options), participant: COPILOT_CLI_PARTICIPANT }).turns,
  },
};

/**
 * Which of `candidates` the text is: the first it is recognised as, else the first candidate (a
 * transcript with no telling line yet is read as the assistant's own format).
 */
export function agentTranscriptFormatOf(text: string, candidates: readonly AgentTranscriptFormat[]): AgentTranscriptFormat | undefined {
  return candidates.find((format) => ENTRIES[format].recognises(text)) ?? candidates[0];
}

/** The finished turns of an assistant's transcript (with `includeUnfinished`, the last one however it ended), in file order. Never throws. */
export function readAgentTranscript(text: string, format: AgentTranscriptFormat, options: AgentTranscriptReadOptions): ChatTurn[] {
  return ENTRIES[format].read(text, options);
}

/** The name a citation gives the assistant that answered (`claude-code` → Claude Code); `undefined` for a participant no format records. */
export function agentLabelOf(participant: string | undefined): string | undefined {
  const answered = participant?.trim().toLowerCase();
  if (answered === undefined || answered === '') return undefined;
  return Object.values(ENTRIES).find((entry) => entry.participant === answered)?.label;
}
