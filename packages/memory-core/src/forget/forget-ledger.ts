// What a forget leaves behind for later, per endpoint, read by every process that sends there:
// - forgotten groups: what was queued for them up to the forget is never sent (by this process or
//   by a live one whose journal the forget could not reach), and their delete on the server is
//   owed until it succeeds (a forget works offline; the delete happens when Graphiti is back);
// - forgotten turns: hashes of the turns those groups held (of their ids, and of their normalised
//   content), so the same turn read again (a transcript resumed under a new session id, even with
//   new message ids) is never planned into any group. No content.
import { injectable } from 'inversify';
import { parseTurnMessageName, sanitiseTurnId } from '../mapping/turn-mapping.js';
import { sha256Hex } from '../scopes/sha256.js';

export interface ForgottenGroup {
  readonly groupId: string;
  /** When it was forgotten (ms since the epoch): records of it enqueued up to then are never sent. */
  readonly forgottenAt: number;
  /** Its delete on the server has not succeeded yet. */
  readonly deletionOwed: boolean;
}

export interface ForgetRecord {
  readonly groups: readonly ForgottenGroup[];
  /** `forgottenTurnKey` and `forgottenContentKey` of every forgotten turn. */
  readonly turns: ReadonlySet<string>;
}

export interface ForgetLedger {
  /** What every process recorded, read afresh. */
  read(): Promise<ForgetRecord>;
  /** Records `groupIds` as forgotten at `at`, their delete owed. Durable when it resolves. */
  forgetGroups(groupIds: readonly string[], at: number): Promise<void>;
  /** Records turn keys (`forgottenTurnKey`) as forgotten. Durable when it resolves. */
  forgetTurns(turnKeys: readonly string[]): Promise<void>;
  /** The delete of these groups succeeded: no longer owed (what was queued before stays unsent). */
  deleted(groupIds: readonly string[]): Promise<void>;
}
export const ForgetLedger = Symbol.for('graphiti-memory.ForgetLedger');

/** At most this many forgotten turn keys are kept (the oldest go first), as many as the delivery ledger keeps. */
export const MAX_FORGOTTEN_TURNS = 100_000;

/** The key of a forgotten turn: a hash of its id as episode names carry it, the same under any session id. */
export async function forgottenTurnKey(turnId: string): Promise<string> {
  return sanitisedTurnKey(sanitiseTurnId(turnId));
}

/** `forgottenTurnKey` of the turn whose episode is named `<app>.turn.<sanitised id>.<role>`; `undefined` for other names. */
export async function forgottenTurnKeyOfName(messageName: string): Promise<string | undefined> {
  const parsed = parseTurnMessageName(messageName);
  return parsed === undefined ? undefined : sanitisedTurnKey(parsed.turnId);
}

async function sanitisedTurnKey(sanitised: string): Promise<string> {
  return (await sha256Hex(`forgotten-turn\n${sanitised}`)).slice(0, 32);
}

/**
 * The content key of a turn: a hash of its normalised text (user, then assistant), so the same turn
 * read again under new message ids (a resumed transcript) is recognised. Normalised: Unicode NFKC,
 * every run of whitespace one space, trimmed ends. Only the hash is kept, never the text.
 */
export async function forgottenContentKey(turn: { readonly user: { readonly text: string }; readonly assistant?: { readonly text: string } | undefined }): Promise<string> {
  const normalise = (text: string): string => text.normalize('NFKC').replace(/\s+/gu, ' ').trim();
  return (await sha256Hex(`forgotten-content\n${normalise(turn.user.text)}\n\u0000\n${normalise(turn.assistant?.text ?? '')}`)).slice(0, 32);
}

/** Whether a record of `groupId` enqueued at `enqueuedAt` was forgotten (never to be sent). */
export function recordForgotten(record: ForgetRecord, groupId: string, enqueuedAt: number): boolean {
  return record.groups.some((group) => group.groupId === groupId && enqueuedAt <= group.forgottenAt);
}

/** Merges a forget into `groups`: the latest time wins, the delete owed again. */
export function withForgottenGroups(groups: readonly ForgottenGroup[], groupIds: readonly string[], at: number): ForgottenGroup[] {
  const byId = new Map(groups.map((group) => [group.groupId, group]));
  for (const groupId of groupIds) byId.set(groupId, { groupId, forgottenAt: Math.max(at, byId.get(groupId)?.forgottenAt ?? 0), deletionOwed: true });
  return [...byId.values()];
}

/** The forget ledger of one process (tests, one-shot tools): nothing survives it. */
@injectable()
export class InMemoryForgetLedger implements ForgetLedger {
  #groups: ForgottenGroup[] = [];
  readonly #turns = new Set<string>();

  async read(): Promise<ForgetRecord> {
    return { groups: [...this.#groups], turns: new Set(this.#turns) };
  }

  async forgetGroups(groupIds: readonly string[], at: number): Promise<void> {
    this.#groups = withForgottenGroups(this.#groups, groupIds, at);
  }

  async forgetTurns(turnKeys: readonly string[]): Promise<void> {
    for (const key of turnKeys) {
      this.#turns.delete(key);
      this.#turns.add(key);
    }
    while (this.#turns.size > MAX_FORGOTTEN_TURNS) this.#turns.delete(this.#turns.values().next().value as string);
  }

  async deleted(groupIds: readonly string[]): Promise<void> {
    const done = new Set(groupIds);
    this.#groups = this.#groups.map((group) => (done.has(group.groupId) ? { ...group, deletionOwed: false } : group));
  }
}
