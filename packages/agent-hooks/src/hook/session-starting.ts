// A brief in the making. Copilot CLI runs sessionStart and the first userPromptSubmitted at the same
// time: the prompt's recall would read what the session was given before the brief recorded it, and
// the same decision would reach the model twice (the brief and the recall). So the brief marks its
// session while it runs, and a prompt of that session reads what was said only once the brief is
// done — bounded by the brief's own deadline, so it never waits longer than the session start
// itself takes. Claude Code and the others run the two in turn: the mark is gone before the prompt.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '@graphiti-memory/memory-node-storage';
import { hookLogFolder } from './hook-log.js';

/** What a brief may take after its mark (rendering and the said-once write) beyond the recall deadline. */
const BRIEF_WRITE_ALLOWANCE_MS = 1_000;
const POLL_MS = 25;

function markFile(stateDirectory: string, sessionId: string): string {
  return path.join(hookLogFolder(stateDirectory), 'starting', createHash('sha256').update(sessionId).digest('hex').slice(0, 32));
}

/** Marks `sessionId`'s brief as running; the returned function clears it. Never throws. */
export async function markSessionStarting(stateDirectory: string, sessionId: string): Promise<() => Promise<void>> {
  const file = markFile(stateDirectory, sessionId);
  try {
    await makePrivateFolder(path.dirname(file));
    await fs.writeFile(file, '', { mode: PRIVATE_FILE_MODE });
  } catch {
    return async () => undefined;
  }
  return () => fs.rm(file, { force: true }).catch(() => undefined);
}

/**
 * Resolves once no brief of `sessionId` is running: at once when there is none; otherwise when it
 * is done or when its own deadline (`briefDeadlineMs` after it began, plus the write allowance) has
 * passed, whichever comes first. Never throws.
 */
export async function sessionStartSettled(stateDirectory: string, sessionId: string, briefDeadlineMs: number, now: () => number = Date.now): Promise<void> {
  const file = markFile(stateDirectory, sessionId);
  for (;;) {
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat === undefined) return;
    if (now() - stat.mtimeMs > briefDeadlineMs + BRIEF_WRITE_ALLOWANCE_MS) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
