// The port through which a host's own language model writes a session digest's text (VS Code's
// `vscode.lm`, with `capture.digestWriter: chatModel`). Optional: tools without a chat model (hooks,
// the harness) bind none and send the filtered digest. The writer gets only what the filtered digest
// already holds (turns filtered, redacted and neutralised by planning); what it returns is treated as
// captured text again (secret-guarded, neutralised, capped) before it leaves the machine.
import type { Message } from '@graphiti-memory/graphiti-client';
import type { DigestWriterSetting } from '../settings/memory-settings.js';
import { isDigestMessageName } from './digest-format.js';

export interface DigestWriteRequest {
  /** The filtered digest's text: the segment's turns as `speaker: text` lines, capped. */
  readonly transcript: string;
  /** How many turns it holds. */
  readonly turns: number;
  /** The digest is cut to this many characters: ask for less. */
  readonly maxChars: number;
  /** `capture.digestModel`: a model family or id; empty: the writer's first available model. */
  readonly model: string;
}

/** Why a writer wrote nothing: expected outcomes, not errors. */
export type DigestWriteMiss = 'no-model' | 'refused' | 'cancelled' | 'failed';

export type DigestWriteResult =
  | { readonly ok: true; readonly text: string; /** The model that wrote it (logged, never sent). */ readonly model?: string }
  | { readonly ok: false; readonly reason: DigestWriteMiss };

/** Writes a digest's text with the host's language model. */
export interface DigestWriter {
  /** Resolves when the model has answered or given up; `signal` aborts at the deadline. */
  write(request: DigestWriteRequest, signal: AbortSignal): Promise<DigestWriteResult>;
}
export const DigestWriter = Symbol.for('graphiti-memory.DigestWriter');

/** How long a digest waits for its writer before the filtered digest is sent. */
export interface DigestWritingOptions {
  readonly deadlineMs: number;
}
export const DigestWritingOptions = Symbol.for('graphiti-memory.DigestWritingOptions');
export const DEFAULT_DIGEST_WRITING_OPTIONS: DigestWritingOptions = { deadlineMs: 30_000 };

/** What a chat-model digest's `source_description` ends with: Graphiti, the audit and episode views see who wrote it. */
export const CHAT_MODEL_DIGEST_NOTE = 'written by the chat model';

/** Who wrote `message`'s text when it is a digest (read from its description); `undefined` for other messages. */
export function digestWriterOf(message: Pick<Message, 'name' | 'source_description'>): DigestWriterSetting | undefined {
  if (!isDigestMessageName(message.name ?? '')) return undefined;
  return message.source_description?.endsWith(CHAT_MODEL_DIGEST_NOTE) === true ? 'chatModel' : 'filtered';
}
