// A plain JSONL transcript: one `{"role", "content", "timestamp"}` object a line (what many
// tools export). A user message followed by the assistant's messages is a turn; system messages
// are attached to the next turn. Turn ids come from a content hash (plus an occurrence number for
// repeated prompts), so re-reading the same file yields the same ids and re-ingestion dedupes.
import type { ChatTurn } from '../ports.js';
import { asRecord, asString, isoTimestamp, JsonLinesReader, type CollectMoment } from './json-lines-reader.js';
import { stableHash } from './stable-hash.js';
import { filterTurn, resolveTranscriptFilter, type TranscriptFilter, type TranscriptFilterOption } from './transcript-filter.js';
import { turnCharacters, type TranscriptParseResult } from './transcript-types.js';

export interface JsonlTranscriptOptions {
  /** The session the turns belong to; default: the lines' `sessionId`, else a hash of the first line. */
  readonly sessionId?: string;
  /** Who answered, as metadata on every turn. */
  readonly participant?: string;
  /** Longer lines are dropped and counted as too long; default 32 Mi characters. */
  readonly maxLineLength?: number;
  /** What of each turn is kept (its prompt and reply, as every parser filters them); default `compact`. */
  readonly filter?: TranscriptFilterOption;
}

const USER_ROLES = new Set(['user', 'human']);
const ASSISTANT_ROLES = new Set(['assistant', 'ai', 'model', 'bot']);
const SYSTEM_ROLES = new Set(['system', 'developer']);
const IGNORED_ROLES = new Set(['tool', 'function']);

interface TurnInProgress {
  readonly id: string | undefined;
  readonly sessionId: string;
  readonly userText: string;
  readonly userTimestamp: string;
  readonly assistant: string[];
  assistantTimestamp?: string;
  readonly system: string | undefined;
}

export class JsonlTranscriptReader extends JsonLinesReader {
  readonly format = 'jsonl' as const;
  private readonly ready: ChatTurn[] = [];
  private readonly occurrences = new Map<string, number>();
  private current: TurnInProgress | undefined;
  private pendingSystem: string[] = [];
  private sessionId: string | undefined;
  private lastTimestamp: string | undefined;
  private skipped = 0;
  private readonly filter: TranscriptFilter;
  private readonly fullSizes = new WeakMap<ChatTurn, number>();

  constructor(private readonly options: JsonlTranscriptOptions = {}) {
    super(options.maxLineLength);
    this.sessionId = options.sessionId;
    this.filter = resolveTranscriptFilter(options.filter);
  }

  protected override fullCharacters(turn: ChatTurn): number {
    return this.fullSizes.get(turn) ?? super.fullCharacters(turn);
  }

  protected handle(line: Record<string, unknown>): boolean {
    const role = (asString(line['role']) ?? asString(line['type']))?.toLowerCase();
    const content = contentText(line['content'] ?? line['text']);
    if (role === undefined || content === undefined) return false;
    this.sessionId ??= asString(line['sessionId']) ?? asString(line['session_id']) ?? `jsonl-${stableHash(JSON.stringify(line))}`;
    const timestamp = isoTimestamp(line['timestamp'] ?? line['created_at'] ?? line['time'], this.lastTimestamp);
    if (line['timestamp'] !== undefined || line['created_at'] !== undefined || line['time'] !== undefined) this.lastTimestamp = timestamp;
    if (USER_ROLES.has(role)) {
      this.finishCurrent();
      const id = line['id'];
      this.current = {
        id: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined,
        sessionId: this.sessionId,
        userText: content,
        userTimestamp: timestamp,
        assistant: [],
        system: this.pendingSystem.length > 0 ? this.pendingSystem.join('\n\n') : undefined,
      };
      this.pendingSystem = [];
    } else if (ASSISTANT_ROLES.has(role)) {
      if (this.current === undefined) {
        // An answer without a question (the file starts mid-conversation).
        this.skipped += 1;
      } else {
        if (content.trim() !== '') this.current.assistant.push(content);
        this.current.assistantTimestamp = timestamp;
      }
    } else if (SYSTEM_ROLES.has(role)) {
      if (content.trim() !== '') this.pendingSystem.push(content);
    } else if (!IGNORED_ROLES.has(role)) {
      return false;
    }
    return true;
  }

  protected collect(moment: CollectMoment): ChatTurn[] {
    // A turn ends at the next user message; when idle, once it has an answer; at the end, always.
    if (moment === 'end' || (moment === 'idle' && (this.current?.assistant.length ?? 0) > 0)) this.finishCurrent();
    return this.ready.splice(0, this.ready.length);
  }

  protected skippedTurns(): number {
    return this.skipped;
  }

  private finishCurrent(): void {
    const turn = this.current;
    if (turn === undefined) return;
    this.current = undefined;
    if (turn.userText.trim() === '') {
      this.skipped += 1;
      return;
    }
    const assistantText = turn.assistant.join('\n\n');
    // The id comes from the text as written, so it stays the same under any filter.
    const whole: ChatTurn = {
      id: turn.id ?? this.contentId(turn),
      sessionId: turn.sessionId,
      user: { text: turn.userText, timestamp: turn.userTimestamp },
      ...(assistantText === '' ? {} : { assistant: { text: assistantText, timestamp: turn.assistantTimestamp ?? turn.userTimestamp } }),
      ...(this.options.participant === undefined ? {} : { participant: this.options.participant }),
      ...(turn.system === undefined ? {} : { system: turn.system }),
    };
    const kept = filterTurn(whole, this.filter);
    this.fullSizes.set(kept, turnCharacters(whole));
    this.ready.push(kept);
  }

  private contentId(turn: TurnInProgress): string {
    const hash = stableHash(`${turn.sessionId}\n${turn.userTimestamp}\n${turn.userText}`);
    const occurrence = (this.occurrences.get(hash) ?? 0) + 1;
    this.occurrences.set(hash, occurrence);
    return occurrence === 1 ? `jsonl-${hash}` : `jsonl-${hash}-${occurrence}`;
  }
}

/** Text of a content value: a string, text blocks (`{type:"text",text}`), or `{text}`. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((block) => (typeof block === 'string' ? block : (asString(asRecord(block)?.['text']) ?? '')))
      .filter((part) => part !== '')
      .join('\n\n');
  }
  return asString(asRecord(content)?.['text']);
}

/** Parses a whole plain JSONL transcript. Never throws. */
export function parseJsonlTranscript(text: string, options?: JsonlTranscriptOptions): TranscriptParseResult {
  return new JsonlTranscriptReader(options).parseAll(text);
}
