// A brief in the making. Copilot CLI runs sessionStart and the first userPromptSubmitted at the same
// time (its descriptor says `startsBesidePrompt`): the prompt's recall would read what the session
// was given before the brief recorded it, and the same decision would reach the model twice (the
// brief and the recall). So the brief marks its session while it runs and leaves a "done" mark, and a
// prompt of that session reads what was said only once the brief is done. The wait is bounded: by
// the brief's own deadline while it runs; for an assistant that starts them together, before the
// brief's process got as far as its mark, by a limit within the prompt hook's own timeout. Other
// assistants run the two in turn: the prompt finds no mark and goes on at once.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '@graphiti-memory/memory-node-storage';
import { hookLogFolder } from './hook-log.js';

/** What a brief may take after its mark (rendering and the said-once write) beyond the recall deadline. */
const BRIEF_WRITE_ALLOWANCE_MS = 1_000;
const POLL_MS = 25;
/** "Done" marks kept at most (the oldest go when a brief starts): one per recent session. */
const MAX_DONE_MARKS = 256;

function marksFolder(stateDirectory: string): string {
  return path.join(hookLogFolder(stateDirectory), 'starting');
}

function markFile(stateDirectory: string, sessionId: string): string {
  return path.join(marksFolder(stateDirectory), createHash('sha256').update(sessionId).digest('hex').slice(0, 32));
}

/** Marks `sessionId`'s brief as running; the returned function marks it done. Never throws. */
export async function markSessionStarting(stateDirectory: string, sessionId: string): Promise<() => Promise<void>> {
  const file = markFile(stateDirectory, sessionId);
  try {
    await makePrivateFolder(path.dirname(file));
    await pruneDoneMarks(path.dirname(file)).catch(() => undefined);
    await fs.writeFile(file, '', { mode: PRIVATE_FILE_MODE });
  } catch {
    return async () => undefined;
  }
  return async () => {
    await fs.writeFile(`${file}.done`, '', { mode: PRIVATE_FILE_MODE }).catch(() => undefined);
    await fs.rm(file, { force: true }).catch(() => undefined);
  };
}

export interface SessionStartWait {
  /** The recall deadline the brief works under. */
  readonly briefDeadlineMs: number;
  /** Set for an assistant that starts its session and first prompt together: how long to wait for a brief not begun yet. */
  readonly expectBriefWithinMs?: number;
  readonly now?: () => number;
}

/**
 * Resolves once no brief of `sessionId` is running: at once when it is done or when there is none
 * (and none is expected); otherwise when it is done or its bound has passed. Never throws.
 */
export async function sessionStartSettled(stateDirectory: string, sessionId: string, wait: SessionStartWait): Promise<void> {
  const now = wait.now ?? Date.now;
  const file = markFile(stateDirectory, sessionId);
  const startedAt = now();
  for (;;) {
    if (await exists(`${file}.done`)) return;
    const running = await fs.stat(file).catch(() => undefined);
    if (running !== undefined) {
      if (now() - running.mtimeMs > wait.briefDeadlineMs + BRIEF_WRITE_ALLOWANCE_MS) return;
    } else if (wait.expectBriefWithinMs === undefined || now() - startedAt >= wait.expectBriefWithinMs) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Notes that `sessionId` is past its start (a prompt that waited its bound out): later prompts go on at once. */
export async function markSessionStarted(stateDirectory: string, sessionId: string): Promise<void> {
  const file = markFile(stateDirectory, sessionId);
  await makePrivateFolder(path.dirname(file))
    .then(() => fs.writeFile(`${file}.done`, '', { mode: PRIVATE_FILE_MODE }))
    .catch(() => undefined);
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

async function pruneDoneMarks(folder: string): Promise<void> {
  const names = (await fs.readdir(folder)).filter((name) => name.endsWith('.done'));
  if (names.length <= MAX_DONE_MARKS) return;
  const dated = await Promise.all(names.map(async (name) => ({ name, at: (await fs.stat(path.join(folder, name)).catch(() => undefined))?.mtimeMs ?? 0 })));
  dated.sort((a, b) => a.at - b.at);
  await Promise.all(dated.slice(0, dated.length - MAX_DONE_MARKS).map((entry) => fs.rm(path.join(folder, entry.name), { force: true })));
}
