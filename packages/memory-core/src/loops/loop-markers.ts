// Loop markers: the explicit lines of a finished turn (the user's words or the assistant's) that
// open or close a loop. Exactly these, case-insensitively, at the start of a line (after optional
// indentation, `>` quote markers and one list bullet; never inside fenced code):
//   open:  `TODO: …` / `todo: …`, `next: …`, `next time, …` / `next time: …`,
//          `follow-up: …` / `follow up: …` / `followup: …`, `task_update: …` (also `task update:`)
//   done:  `done: …`, `task_update (done): …`, `task_update: done: …`
//   drop:  `task_update (dropped): …`, `task_update: dropped: …`
// Anything else (`my todo: …`, `// TODO: …` in code, a marker inside a sentence) is not a loop.
import { markedLines } from '../directives/directive-parser.js';

export type LoopMarkerAction = 'open' | 'done' | 'drop';

/** Which marker a loop came from (its evidence); `task_update` for the directive. */
export type LoopMarkerKind = 'todo' | 'next' | 'follow-up' | 'task_update' | 'done';

export interface LoopMarker {
  readonly action: LoopMarkerAction;
  readonly marker: LoopMarkerKind;
  /** The rest of the line, trimmed and cut to `MAX_LOOP_TEXT_CHARS`; never empty. */
  readonly text: string;
}

/** The longest loop text kept: a loop is one line to act on, not a transcript. */
export const MAX_LOOP_TEXT_CHARS = 300;

const OPENERS: ReadonlyArray<readonly [RegExp, LoopMarkerKind]> = [
  [/^todo[ \t]*:(.*)$/i, 'todo'],
  [/^next[ \t]+time[ \t]*[,:](.*)$/i, 'next'],
  [/^next[ \t]*:(.*)$/i, 'next'],
  [/^follow[ _-]?up[ \t]*:(.*)$/i, 'follow-up'],
];
const DONE = /^done[ \t]*:(.*)$/i;
// `task_update`, an optional `(status)`, a colon, then an optional `status:` inside the text.
const TASK_UPDATE = /^task[ _-]?update[ \t]*(?:\(([^()\n]*)\)[ \t]*)?:(.*)$/i;
const STATUS_IN_TEXT = /^(open|done|dropped|drop)[ \t]*:(.*)$/i;

/** The loop markers of `text`, in order; `[]` for none. Never throws. */
export function parseLoopMarkers(text: string): LoopMarker[] {
  const markers: LoopMarker[] = [];
  for (const line of markedLines(text)) {
    const marker = parseLine(line);
    if (marker !== undefined) markers.push(marker);
  }
  return markers;
}

function parseLine(line: string): LoopMarker | undefined {
  for (const [pattern, marker] of OPENERS) {
    const match = pattern.exec(line);
    if (match) return withText('open', marker, match[1]);
  }
  const done = DONE.exec(line);
  if (done) return withText('done', 'done', done[1]);
  const update = TASK_UPDATE.exec(line);
  if (update) {
    let status = update[1]?.trim().toLowerCase();
    let rest = update[2] ?? '';
    const inText = STATUS_IN_TEXT.exec(rest.trim());
    if (status === undefined && inText) {
      status = inText[1]?.toLowerCase();
      rest = inText[2] ?? '';
    }
    return withText(statusAction(status), 'task_update', rest);
  }
  return undefined;
}

function statusAction(status: string | undefined): LoopMarkerAction {
  if (status === 'done') return 'done';
  if (status === 'dropped' || status === 'drop') return 'drop';
  return 'open';
}

function withText(action: LoopMarkerAction, marker: LoopMarkerKind, raw: string | undefined): LoopMarker | undefined {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  return { action, marker, text: text.length > MAX_LOOP_TEXT_CHARS ? `${text.slice(0, MAX_LOOP_TEXT_CHARS - 1)}…` : text };
}
