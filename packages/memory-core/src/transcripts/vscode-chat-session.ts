// VS Code's persisted chat sessions (vscode-chat-sessions.md): the `.jsonl` mutation log is
// replayed in full before any text is read, and only finished turns are kept — `modelState.value`
// 1 without `result.errorDetails`. Cancelled (2), failed (3, or 1 with errorDetails), in-progress
// (0) and waiting (4) requests are skipped; `inputState` is a draft, never a turn. The flat `.json`
// variant (the whole session object) is read as a snapshot.
import type { ChatTurn, TurnReference, TurnStructure, TurnToolCall } from '../ports.js';
import { asRecord, asString, isoTimestamp, JsonLinesReader, type CollectMoment } from './json-lines-reader.js';
import { parseJsonObject } from './line-splitter.js';
import { filterTurn, resolveTranscriptFilter, type TranscriptFilter, type TranscriptFilterOption } from './transcript-filter.js';
import { turnCharacters, type TranscriptParseResult } from './transcript-types.js';
import { ChatSessionLog } from './vscode-chat-log.js';

/** Session object versions this parser understands (3 is current; 1 and 2 are legacy files). */
export const SUPPORTED_VSCODE_CHAT_VERSIONS: readonly number[] = [1, 2, 3];

export interface VsCodeChatSessionOptions {
  /** Session id when the session object has none. */
  readonly sessionId?: string;
  /** Longer lines are dropped and counted as too long; default 32 Mi characters. */
  readonly maxLineLength?: number;
  /** What to keep of prompts and replies (code blocks in replies: one line each); default preset `compact`. */
  readonly filter?: TranscriptFilterOption;
}

interface RequestReading {
  readonly id: string | undefined;
  readonly finished: boolean;
  readonly turn: ChatTurn | undefined;
}

export class VsCodeChatSessionReader extends JsonLinesReader {
  readonly format = 'vscode-chat' as const;
  private readonly log = new ChatSessionLog();
  private readonly emitted = new Set<string>();
  /** Requests changed by the latest chunk; `true` when that change was the `modelState` set. */
  private readonly touched = new Map<number, boolean>();
  private readonly filter: TranscriptFilter;
  private readonly fullSizes = new WeakMap<ChatTurn, number>();

  constructor(private readonly options: VsCodeChatSessionOptions = {}) {
    super(options.maxLineLength);
    this.filter = resolveTranscriptFilter(options.filter);
  }

  /** Loads a whole session object (the flat `.json` variant). */
  loadSnapshot(session: Record<string, unknown>): void {
    this.log.apply({ kind: 0, v: session });
  }

  protected handle(line: Record<string, unknown>): boolean {
    if (!('kind' in line) && Array.isArray(line['requests'])) {
      this.loadSnapshot(line);
      return true;
    }
    const applied = this.log.apply(line);
    if (applied === undefined) return false;
    // A snapshot (kind 0) is whole in one line: its finished requests are settled.
    if (applied.kind !== 0 && applied.path[0] === 'requests') {
      const index = applied.path[1];
      if (typeof index === 'number') {
        this.touched.set(index, applied.kind === 1 && applied.path.length === 3 && applied.path[2] === 'modelState');
      } else if (applied.kind === 2) {
        const length = this.requests().length;
        for (let offset = 1; offset <= applied.pushed; offset += 1) this.touched.set(length - offset, false);
      }
    }
    return true;
  }

  protected collect(moment: CollectMoment, atLineBoundary: boolean): ChatTurn[] {
    const turns: ChatTurn[] = [];
    if (this.unsupportedVersion() === undefined) {
      const requests = this.requests();
      for (let index = 0; index < requests.length; index += 1) {
        const reading = this.readRequest(requests[index]);
        if (!reading.finished || reading.turn === undefined || reading.id === undefined || this.emitted.has(reading.id)) continue;
        // While a write may be in progress, wait: the modelState line of a flush comes before its
        // response lines, so a request sealed by the last line may still lack its final text.
        const unsettled = !atLineBoundary || this.touched.get(index) === true;
        if (moment === 'push' && unsettled) continue;
        this.emitted.add(reading.id);
        turns.push(this.filtered(reading.turn));
      }
    }
    if (moment !== 'push' || atLineBoundary) this.touched.clear();
    return turns;
  }

  protected skippedTurns(): number {
    if (this.unsupportedVersion() !== undefined) return 0;
    return this.requests().filter((request) => {
      const reading = this.readRequest(request);
      return !reading.finished || reading.turn === undefined;
    }).length;
  }

  protected override fullCharacters(turn: ChatTurn): number {
    return this.fullSizes.get(turn) ?? super.fullCharacters(turn);
  }

  /** The turn as the filter keeps it (filtered only when handed out: requests are re-read often). */
  private filtered(turn: ChatTurn): ChatTurn {
    const kept = filterTurn(turn, this.filter);
    this.fullSizes.set(kept, turnCharacters(turn));
    return kept;
  }

  protected override unsupportedVersion(): number | string | undefined {
    const version = this.log.state?.['version'];
    if (version === undefined) return undefined;
    if (typeof version === 'number' && SUPPORTED_VSCODE_CHAT_VERSIONS.includes(version)) return undefined;
    return typeof version === 'number' || typeof version === 'string' ? version : String(version);
  }

  private requests(): readonly unknown[] {
    const requests = this.log.state?.['requests'];
    return Array.isArray(requests) ? requests : [];
  }

  private readRequest(value: unknown): RequestReading {
    const request = asRecord(value);
    if (request === undefined) return { id: undefined, finished: false, turn: undefined };
    const id = asString(request['requestId']);
    const finished = isFinished(request);
    const message = request['message'];
    const userText = asString(asRecord(message)?.['text']) ?? asString(message) ?? '';
    if (id === undefined || userText.trim() === '') return { id, finished, turn: undefined };
    const session = this.log.state ?? {};
    const sessionStart = isoTimestamp(session['creationDate'], undefined);
    const userTimestamp = isoTimestamp(request['timestamp'], sessionStart);
    const modelState = asRecord(request['modelState']);
    const assistantText = responseText(request['response']);
    const participant = asString(asRecord(request['agent'])?.['id']) ?? asString(session['responderUsername']);
    const turn: ChatTurn = {
      id,
      sessionId: asString(session['sessionId']) ?? this.options.sessionId ?? 'vscode-chat-session',
      user: { text: userText, timestamp: userTimestamp },
      ...(assistantText.trim() === ''
        ? {}
        : {
            assistant: {
              text: assistantText,
              timestamp: isoTimestamp(request['responseTimestamp'] ?? modelState?.['completedAt'], userTimestamp),
            },
          }),
      ...(participant === undefined ? {} : { participant }),
      ...structureOf(session, request),
    };
    return { id, finished, turn };
  }
}

/**
 * What the structured mirror reads of a request: the session's custom title, attachments
 * (`variableData.variables[]`: by URI, with inline content only when the session holds it),
 * references (`contentReferences[]`, `inlineReference` response parts) and tool invocations
 * (`toolInvocationSerialized`: the tool id and its message; VS Code keeps no tool output).
 */
function structureOf(session: Record<string, unknown>, request: Record<string, unknown>): Pick<ChatTurn, 'structure'> {
  const references: TurnReference[] = [];
  const variables = asRecord(request['variableData'])?.['variables'];
  for (const variable of Array.isArray(variables) ? variables : []) {
    const record = asRecord(variable);
    const value = record?.['value'];
    const uri = uriOf(value) ?? uriOf(asRecord(value)?.['uri']) ?? (typeof record?.['id'] === 'string' && record['id'].includes(':') ? record['id'] : undefined);
    if (uri === undefined) continue;
    references.push({ kind: 'attachment', uri, ...(typeof value === 'string' ? { content: value } : {}) });
  }
  const contentReferences = request['contentReferences'];
  for (const reference of Array.isArray(contentReferences) ? contentReferences : []) {
    const target = asRecord(reference)?.['reference'];
    const uri = uriOf(target) ?? uriOf(asRecord(target)?.['uri']);
    if (uri !== undefined) references.push({ kind: 'reference', uri });
  }
  const toolCalls: TurnToolCall[] = [];
  const response = request['response'];
  for (const part of Array.isArray(response) ? response : []) {
    const record = asRecord(part);
    if (record?.['kind'] === 'inlineReference') {
      const uri = uriOf(record['inlineReference']) ?? uriOf(asRecord(record['inlineReference'])?.['uri']);
      if (uri !== undefined) references.push({ kind: 'reference', uri });
    } else if (record?.['kind'] === 'toolInvocationSerialized') {
      const name = asString(record['toolId']) ?? 'tool';
      const message = asString(asRecord(record['pastTenseMessage'])?.['value']) ?? asString(asRecord(record['invocationMessage'])?.['value']) ?? '';
      toolCalls.push({ name, summary: message.trim() === '' ? `${name}()` : message });
    }
  }
  const title = asString(session['customTitle']);
  const structure: TurnStructure = {
    ...(title === undefined || title.trim() === '' ? {} : { title }),
    ...(toolCalls.length === 0 ? {} : { toolCalls }),
    ...(references.length === 0 ? {} : { references: dedupeReferences(references) }),
  };
  return Object.keys(structure).length === 0 ? {} : { structure };
}

/** A URI as VS Code serialises it (`{ $mid, scheme, authority, path, … }`, `external` when set) or a URI string. */
function uriOf(value: unknown): string | undefined {
  if (typeof value === 'string') return /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : undefined;
  const record = asRecord(value);
  if (record === undefined) return undefined;
  const external = asString(record['external']);
  if (external !== undefined) return external;
  const scheme = asString(record['scheme']);
  const path = asString(record['path']);
  if (scheme === undefined || path === undefined) return undefined;
  return `${scheme}://${asString(record['authority']) ?? ''}${path}`;
}

function dedupeReferences(references: readonly TurnReference[]): TurnReference[] {
  const seen = new Set<string>();
  return references.filter((reference) => {
    const key = `${reference.kind}\n${reference.uri}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `modelState.value` 1 without error details; legacy requests without `modelState` count when answered. */
function isFinished(request: Record<string, unknown>): boolean {
  if (asRecord(request['result'])?.['errorDetails'] !== undefined) return false;
  if (request['responseErrorDetails'] !== undefined || request['isCanceled'] === true) return false;
  const modelState = asRecord(request['modelState']);
  if (modelState !== undefined) return modelState['value'] === 1;
  const response = request['response'];
  return asRecord(request['result']) !== undefined || (Array.isArray(response) && response.length > 0);
}

/**
 * The assistant's text: bare markdown parts (no `kind`), `markdownVuln` content and legacy plain
 * strings, concatenated in order. Tool invocations, progress, references and the like are not text.
 */
export function responseText(response: unknown): string {
  if (!Array.isArray(response)) return '';
  let text = '';
  for (const part of response) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    const record = asRecord(part);
    if (record === undefined) continue;
    const kind = record['kind'];
    if (kind === undefined) {
      text += asString(record['value']) ?? '';
    } else if (kind === 'markdownVuln' || kind === 'markdownContent') {
      const content = record['content'];
      text += asString(asRecord(content)?.['value']) ?? asString(content) ?? '';
    }
  }
  return text;
}

/**
 * Parses a VS Code chat session: the `.jsonl` mutation log or the flat `.json` object. Never
 * throws; an unknown `version` yields `unsupportedVersion` and no turns.
 */
export function parseVsCodeChatSession(text: string, options?: VsCodeChatSessionOptions): TranscriptParseResult {
  const reader = new VsCodeChatSessionReader(options);
  const whole = typeof text === 'string' && text.trimStart().startsWith('{') ? parseJsonObject(text) : undefined;
  if (whole !== undefined && !('kind' in whole)) {
    // The flat `.json` variant, possibly pretty-printed over many lines.
    reader.loadSnapshot(whole);
    const turns = reader.end();
    return { ...reader.stats(), turns };
  }
  return reader.parseAll(text);
}
