// What to tell the user about delivery, in one place: `hooks status`, the SessionStart footer (a
// `systemMessage` to the user, never the model's context), the extension's status item and
// `doctor` all say it with these words. Dead letters (messages that will not be sent again on
// their own) and messages waiting longer than LONG_WAIT_MS (Graphiti unreachable for a while) are
// worth a line; a short outage is not (it is waited out on its own). Counts only, never content.

/** A message queued longer than this is "waiting" in what the user is told. */
export const LONG_WAIT_MS = 3_600_000;

export interface DeliveryCounts {
  /** Dead letters in the outbox. */
  readonly deadLetters: number;
  /** Undelivered messages queued longer than LONG_WAIT_MS. */
  readonly waiting: number;
  /** When the oldest of those was queued (epoch ms). */
  readonly oldestWaitingAt?: number;
  /** The outbox's bound (`maxAgeHours`): how long waiting messages are kept trying. */
  readonly maxAgeHours?: number;
}

/**
 * Who reads the line: `terminal` (hooks status, doctor, the assistants' footer) is told the
 * `graphiti-harness` commands; `editor` (the VS Code status item) the status menu's plain words.
 */
export type NoticeAudience = 'terminal' | 'editor';

export interface DeliveryNotice {
  readonly deadLetters: number;
  readonly waiting: number;
  /** `ok`: nothing to say; `waiting`: long-pending only; `dead-letters`: something needs the user. */
  readonly level: 'ok' | 'waiting' | 'dead-letters';
  /** One line for the user, or `undefined` when there is nothing to say. */
  readonly line: string | undefined;
}

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

function describeWait(since: number | undefined, now: number): string {
  if (since === undefined) return 'over 1 h';
  const hours = Math.floor((now - since) / 3_600_000);
  return hours >= 48 ? `${Math.floor(hours / 24)} days` : `${Math.max(1, hours)} h`;
}

/** The notice for these counts at `now` (epoch ms). */
export function deliveryNotice(counts: DeliveryCounts, now: number, audience: NoticeAudience = 'terminal'): DeliveryNotice {
  const editor = audience === 'editor';
  const deadLetters = Math.max(0, Math.floor(counts.deadLetters));
  const waiting = Math.max(0, Math.floor(counts.waiting));
  const parts: string[] = [];
  if (deadLetters > 0) {
    const next = editor
      ? 'choose "Retry Unsent Messages" in the status menu'
      : '(dead letters): see `graphiti-harness outbox list`, then `outbox retry` or `outbox drop`';
    parts.push(`${plural(deadLetters, 'captured message was', 'captured messages were')} not stored and will not be sent again on their own${editor ? ': ' : ' '}${next}`);
  }
  if (waiting > 0) {
    const bound = counts.maxAgeHours === undefined ? '' : `, kept trying until ${counts.maxAgeHours} h old`;
    const check = editor ? 'choose "Test Connection" to check it' : 'check it with `graphiti-harness health`';
    parts.push(`${plural(waiting, 'captured message has', 'captured messages have')} waited ${describeWait(counts.oldestWaitingAt, now)} for Graphiti (sent once it is reachable${bound}): ${check}`);
  }
  const level = deadLetters > 0 ? 'dead-letters' : waiting > 0 ? 'waiting' : 'ok';
  return { deadLetters, waiting, level, line: parts.length === 0 ? undefined : `Graphiti Memory: ${parts.join('; ')}.` };
}
