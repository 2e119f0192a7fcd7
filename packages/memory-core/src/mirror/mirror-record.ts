// The structured record of one finalized turn (seed 001), built off the chat path: who and when,
// what was said (secret-guarded, capped per node with a visible marker), tool calls (name and a
// one-line summary of the arguments) with their results (status, size, hash; the text only when the
// user captures tool output in full), references and attachments by URI and hash (never content),
// the response, each under a stable id, each text with its content hash.
import { truncateText } from '../mapping/truncation.js';
import type { ChatTurn } from '../ports.js';
import type { SecretGuard } from '../secrets/secret-guard.js';
import {
  contentHash,
  conversationNodeId,
  referenceNodeId,
  sectionNodeId,
  toolNodeId,
  toolResultNodeId,
  turnNodeId,
} from './mirror-ids.js';

/** The record's format, in every record: a reader can tell versions apart. */
export const MIRROR_RECORD_FORMAT = 'graphiti-memory.mirror.turn/1';

/** Longest one-line value (a title, a tool summary, a URI) kept in a record. */
export const MIRROR_LINE_MAX_CHARS = 300;

export interface MirrorSection {
  readonly id: string;
  readonly role: 'user' | 'assistant';
  readonly text: string;
  /** Characters of the text before the cap. */
  readonly chars: number;
  readonly truncated: boolean;
  /** Hash of the whole (guarded) text, before the cap. */
  readonly hash: string;
}

export interface MirrorToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly result: {
    readonly id: string;
    readonly status: 'ok' | 'error';
    /** Characters of the result. */
    readonly size: number;
    readonly hash: string;
    /** Only when tool output is captured in full (`filter.toolResults: full`); capped. */
    readonly text?: string;
  } | null;
}

export interface MirrorReference {
  readonly id: string;
  readonly kind: 'attachment' | 'reference';
  readonly uri: string;
  /** Hash of the content the transcript held; `null` when it held only the URI. */
  readonly hash: string | null;
}

export interface MirrorRecord {
  readonly format: typeof MIRROR_RECORD_FORMAT;
  readonly conversation: { readonly id: string; readonly title: string | null; readonly tool: string };
  readonly turn: { readonly id: string; readonly at: string; readonly replay_parent: string | null };
  readonly sections: readonly MirrorSection[];
  readonly tool_calls: readonly MirrorToolCall[];
  readonly references: readonly MirrorReference[];
  /** The section holding the assistant's answer; `null` for a turn without one. */
  readonly response: string | null;
}

export interface MirrorRecordOptions {
  /** The tool as people name it (`Claude Code`, `VS Code chat`). */
  readonly tool: string;
  /** Cap of each text node (the settings' `maxMessageChars`). */
  readonly maxNodeChars: number;
  /** Tool output captured in full (`filter.toolResults: full`): then result text goes too, capped. */
  readonly toolOutput: boolean;
  readonly secretGuard: SecretGuard;
}

export async function buildMirrorRecord(turn: ChatTurn, options: MirrorRecordOptions): Promise<MirrorRecord> {
  const guard = async (text: string): Promise<string> => (await options.secretGuard.redact(text)).text;
  const line = async (text: string): Promise<string> => truncateText((await guard(text)).replace(/\s+/g, ' ').trim(), MIRROR_LINE_MAX_CHARS);
  const sections: MirrorSection[] = [];
  const section = async (role: 'user' | 'assistant', raw: string): Promise<string> => {
    const text = await guard(raw);
    const id = sectionNodeId(turn.id, sections.length);
    const capped = truncateText(text, options.maxNodeChars);
    sections.push({ id, role, text: capped, chars: text.length, truncated: capped !== text, hash: await contentHash(text) });
    return id;
  };
  await section('user', turn.user.text);
  const response = turn.assistant === undefined ? null : await section('assistant', turn.assistant.text);
  const structure = turn.structure ?? {};
  const toolCalls: MirrorToolCall[] = [];
  for (const [index, call] of (structure.toolCalls ?? []).entries()) {
    const result = call.result;
    toolCalls.push({
      id: toolNodeId(turn.id, index),
      name: await line(call.name),
      arguments: await line(call.summary),
      result:
        result === undefined
          ? null
          : {
              id: toolResultNodeId(turn.id, index),
              status: result.isError ? 'error' : 'ok',
              size: result.text.length,
              hash: await contentHash(result.text),
              ...(options.toolOutput ? { text: truncateText(await guard(result.text), options.maxNodeChars) } : {}),
            },
    });
  }
  const references: MirrorReference[] = [];
  for (const [index, reference] of (structure.references ?? []).entries()) {
    references.push({
      id: referenceNodeId(turn.id, index),
      kind: reference.kind,
      uri: await line(reference.uri),
      hash: reference.content === undefined ? null : await contentHash(reference.content),
    });
  }
  return {
    format: MIRROR_RECORD_FORMAT,
    conversation: {
      id: conversationNodeId(turn.sessionId),
      title: structure.title === undefined || structure.title.trim() === '' ? null : await line(structure.title),
      tool: options.tool,
    },
    turn: {
      id: turnNodeId(turn.id),
      at: turn.assistant?.timestamp ?? turn.user.timestamp,
      replay_parent: structure.replayParent === undefined ? null : turnNodeId(structure.replayParent),
    },
    sections,
    tool_calls: toolCalls,
    references,
    response,
  };
}
