// A finalized chat turn → the messages Graphiti stores. The names are stable (the same turn seen
// twice maps to the same names, so delivery can de-duplicate), no `uuid` is ever set (the server
// would treat the message as an existing episode), and nothing here reveals a path.
import type { Message } from '@graphiti-memory/graphiti-client';
import type { ChatTurn, GitMetadata } from '../ports.js';
import { stableHash } from '../transcripts/stable-hash.js';
import { truncateText } from './truncation.js';

/** The application name used in episode names and source descriptions. */
export const APP_NAME = 'graphiti-memory';

export interface TurnMappingOptions {
  /** Prefix of episode names and of `source_description`. */
  readonly app: string;
  readonly maxMessageChars: number;
  /** Send the turn's system/context prompt too. */
  readonly includeSystemMessages: boolean;
  readonly includeGitMetadata: boolean;
  readonly gitMetadata?: GitMetadata | undefined;
}

const MAX_TURN_ID_LENGTH = 96;

/**
 * `turn.id` made safe for an episode name: characters outside `[a-zA-Z0-9._-]` become `_`, and a
 * short hash of the original is appended when that (or the length cap) lost information.
 */
export function sanitiseTurnId(turnId: string): string {
  const sanitised = turnId.replace(/[^a-zA-Z0-9._-]/g, '_');
  if (sanitised === turnId && sanitised.length <= MAX_TURN_ID_LENGTH && sanitised !== '') return sanitised;
  return `${sanitised.slice(0, MAX_TURN_ID_LENGTH - 17)}-${stableHash(turnId)}`;
}

/** `<app>.turn.<turnId>.<role>`: the stable name of one message of a turn. */
export function turnMessageName(app: string, turnId: string, role: 'user' | 'assistant' | 'system'): string {
  return `${app}.turn.${sanitiseTurnId(turnId)}.${role}`;
}

/** A turn message's name read back: `turnId` as the name carries it (sanitised). */
export interface TurnMessageName {
  readonly app: string;
  readonly turnId: string;
  readonly role: 'user' | 'assistant' | 'system';
}

const TURN_MESSAGE_NAME = /^(.+?)\.turn\.(.+)\.(user|assistant|system)$/;

/** The parts of a name `turnMessageName` made; `undefined` for any other episode (digests, promotions). */
export function parseTurnMessageName(name: string): TurnMessageName | undefined {
  const match = TURN_MESSAGE_NAME.exec(name);
  if (match === null) return undefined;
  const [, app = '', turnId = '', role] = match;
  return { app, turnId, role: role as TurnMessageName['role'] };
}

/**
 * `graphiti-memory chat; branch=main; commit=abc1234; dirty=false`. Git values are reduced to
 * safe characters (a `;` or newline cannot forge another field); nothing else is ever added.
 */
export function sourceDescription(app: string, git: GitMetadata | undefined): string {
  const parts = [`${app} chat`];
  if (git) {
    const branch = git.branch === undefined ? '' : git.branch.replace(/[^\w./@+-]/g, '_').slice(0, 100);
    const commit = git.commit === undefined ? '' : git.commit.replace(/[^0-9a-fA-F]/g, '').slice(0, 7).toLowerCase();
    if (branch !== '') parts.push(`branch=${branch}`);
    if (commit !== '') parts.push(`commit=${commit}`);
    if (typeof git.dirty === 'boolean') parts.push(`dirty=${git.dirty}`);
  }
  return parts.join('; ');
}

/**
 * The messages of a turn, in order: the system prompt (only when `includeSystemMessages`), the
 * user message, the assistant message (only when the turn has one). Empty texts are skipped.
 * `role` is `user`, the participant (or `assistant`), and `null` for the system prompt.
 */
export function turnToMessages(turn: ChatTurn, options: TurnMappingOptions): Message[] {
  const description = sourceDescription(options.app, options.includeGitMetadata ? options.gitMetadata : undefined);
  const messages: Message[] = [];
  const add = (
    role: 'user' | 'assistant' | 'system',
    speaker: string | null,
    text: string | undefined,
    timestamp: string | undefined,
  ): void => {
    if (text === undefined || text.trim() === '') return;
    const message: Message = {
      content: truncateText(text, options.maxMessageChars),
      role_type: role,
      role: speaker,
      name: turnMessageName(options.app, turn.id, role),
      source_description: description,
    };
    const iso = isoTimestamp(timestamp);
    messages.push(iso === undefined ? message : { ...message, timestamp: iso });
  };
  if (options.includeSystemMessages) add('system', null, turn.system, turn.user.timestamp);
  add('user', 'user', turn.user.text, turn.user.timestamp);
  if (turn.assistant) {
    const participant = turn.participant?.trim();
    add('assistant', participant ? participant : 'assistant', turn.assistant.text, turn.assistant.timestamp);
  }
  return messages;
}

/** An ISO 8601 UTC timestamp, or `undefined` for one that cannot be read (the server then uses now). */
export function isoTimestamp(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  // A timestamp without an offset means UTC, as on the wire; `Date` would read it as local time.
  const withZone = /T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(trimmed) ? `${trimmed}Z` : trimmed;
  const time = Date.parse(withZone);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
