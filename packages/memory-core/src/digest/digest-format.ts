// A closed segment → the one message Graphiti stores for it. Each turn keeps its speakers
// (`user: …`, `claude-code: …`), one line break apart: every turn opens with `user:`, and replies
// hold blank lines of their own, so a blank line between turns marks nothing. The whole is capped,
// every turn keeping its share, so a long session cannot become one huge extraction job. The name
// is stable (the session and the segment's first turn), so a segment closed twice maps to one name
// and the delivery ledger admits it once.
import type { Message } from '@graphiti-memory/graphiti-client';
import { APP_NAME, sanitiseTurnId } from '../mapping/turn-mapping.js';
import { truncateText } from '../mapping/truncation.js';
import type { DigestTurn } from './digest-segment-store.js';

/** The speaker Graphiti sees for a digest: its body is `chat session(user): <turns>`. */
export const DIGEST_SPEAKER = 'chat session';

/** The smallest share of the cap a turn gets (room for the truncation marker and a few words). */
const MIN_TURN_CHARS = 80;
const TURN_SEPARATOR = '\n';

/** `<app>.digest.<sessionId>.<first turn id>`: the stable name of a segment's digest. */
export function digestMessageName(sessionId: string, firstTurnId: string): string {
  return `${APP_NAME}.digest.${sanitiseTurnId(sessionId)}.${sanitiseTurnId(firstTurnId)}`;
}

/** Whether `name` is a digest's name (episode views, confirmation). */
export function isDigestMessageName(name: string): boolean {
  return name.startsWith(`${APP_NAME}.digest.`);
}

/** A digest's text is at most this long: three messages' worth (`maxMessageChars` × 3). */
export function digestMaxChars(maxMessageChars: number): number {
  return Math.min(100_000, maxMessageChars * 3);
}

/**
 * How a digest names a speaker. A VS Code participant id (`publisher.extension.participant`) is
 * named by its extension (`github.copilot.editsAgent` → `copilot`): the full id, repeated on every
 * turn, was about a tenth of a short chat's digest and tells the extraction no more.
 */
export function digestSpeaker(speaker: string): string {
  return PARTICIPANT_ID.exec(speaker)?.[1] ?? speaker;
}

// Dotted names whose parts all start with a letter (`gpt-4.1` is a model, not a participant id).
const PARTICIPANT_ID = /^[A-Za-z][\w-]*\.([A-Za-z][\w-]*)(?:\.[A-Za-z][\w-]*)*$/;

/** One turn as `speaker: text` lines (the system prompt, when sent, as `system: …`). */
function turnBlock(turn: DigestTurn): string {
  return turn.messages.map((message) => `${digestSpeaker(message.role ?? message.role_type)}: ${message.content}`).join('\n');
}

/**
 * The digest message of `turns` (oldest first, at least one) of `sessionId`. Texts are already
 * mapped, redacted and neutralised by planning; timestamps: the last turn's, so Graphiti dates it
 * when the segment ended.
 */
export function digestMessage(sessionId: string, turns: readonly DigestTurn[], maxMessageChars: number): Message {
  const first = turns[0];
  if (first === undefined) throw new Error('digestMessage: a digest needs at least one turn; close only segments that hold turns');
  const cap = digestMaxChars(maxMessageChars);
  const blocks = turns.map(turnBlock);
  const shares = fairShares(
    blocks.map((block) => block.length),
    cap - TURN_SEPARATOR.length * (turns.length - 1),
  );
  const content = truncateText(blocks.map((block, index) => truncateText(block, shares[index] ?? MIN_TURN_CHARS)).join(TURN_SEPARATOR), cap);
  const messages = turns.flatMap((turn) => turn.messages);
  const timestamp = messages.map((message) => message.timestamp).filter((value): value is string => value !== undefined && value !== null).at(-1);
  const description = first.messages[0]?.source_description ?? `${APP_NAME} chat`;
  return {
    content,
    role_type: 'user',
    role: DIGEST_SPEAKER,
    name: digestMessageName(sessionId, first.id),
    source_description: `${description}; digest of ${turns.length} ${turns.length === 1 ? 'turn' : 'turns'}`,
    ...(timestamp === undefined ? {} : { timestamp }),
  };
}

/**
 * Each turn's room in `budget`: a turn shorter than an equal share keeps all of it and leaves the
 * rest to the longer ones, so one long turn is cut only as far as the whole exceeds the cap (an
 * equal split cut a long reply even when the digest had room to spare).
 */
function fairShares(lengths: readonly number[], budget: number): number[] {
  const shares = lengths.map(() => MIN_TURN_CHARS);
  let remaining = budget;
  let left = lengths.length;
  const shortestFirst = lengths.map((length, index) => ({ length, index })).sort((a, b) => a.length - b.length);
  for (const { length, index } of shortestFirst) {
    const share = Math.max(MIN_TURN_CHARS, Math.floor(remaining / left));
    const given = Math.min(length, share);
    shares[index] = given;
    remaining -= given;
    left -= 1;
  }
  return shares;
}
