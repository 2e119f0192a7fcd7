// One event, once. An assistant that reads two of our hook files runs one event through both: VS
// Code runs `~/.claude/settings.json` (chat.useClaudeHooks) and every file in `~/.copilot/hooks`
// (Copilot CLI's `bash` entries too); Copilot CLI runs a trusted repository's
// `.claude/settings*.json` beside its own. The first run of a SessionStart or a prompt in a session
// answers; a second run of the same event (the same session, source or prompt, within seconds)
// prints nothing. Only events of those hosts are marked — VS Code's (its transcript) and those that
// carry the time they were sent (Copilot CLI, in both shapes) — so Claude Code, which reads one
// file, answers every prompt, the same words again included. A turn end needs no marker: the transcript ledger takes each turn once, so a
// second Stop or SessionEnd captures nothing. The marker is one empty file per event in the state
// folder, made with `wx` (two runs at once: one wins), pruned on each session start.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '@graphiti-memory/memory-node-storage';
import type { HookEvent } from './hook-input.js';
import { hookLogFolder } from './hook-log.js';

/** Two runs of one event come within this of each other; the same prompt typed again later is a new event. */
export const SAME_EVENT_WINDOW_MS = 10_000;
/** VS Code's Copilot transcripts: `…/GitHub.copilot-chat/transcripts/`. */
const VSCODE_TRANSCRIPT = /[\\/]github\.copilot-chat[\\/]/i;
/** Markers older than this are removed when a session starts. */
const MARKER_MAX_AGE_MS = 10 * 60_000;

export function eventMarkersFolder(stateDirectory: string): string {
  return path.join(hookLogFolder(stateDirectory), 'once');
}

/** What makes two runs the same event; `undefined` for events that are not marked (turn ends, events without a session). */
export function sameEventKey(hook: Pick<HookEvent, 'event' | 'sessionId' | 'prompt' | 'source' | 'sentAt' | 'transcriptPath'>): string | undefined {
  if (hook.sessionId === undefined) return undefined;
  const readsTwoFiles = hook.sentAt !== undefined || (hook.transcriptPath !== undefined && VSCODE_TRANSCRIPT.test(hook.transcriptPath));
  if (!readsTwoFiles) return undefined;
  if (hook.event === 'SessionStart') return `${hook.sessionId}\nSessionStart\n${hook.source ?? ''}`;
  if (hook.event === 'UserPromptSubmit') return `${hook.sessionId}\nUserPromptSubmit\n${(hook.prompt ?? '').trim()}`;
  return undefined;
}

/**
 * True when this run is the first of its event (it should answer), false for a second run within
 * the window. Never throws: a marker that cannot be written means the run answers (twice beats never).
 */
export async function firstRunOfEvent(stateDirectory: string, hook: Pick<HookEvent, 'event' | 'sessionId' | 'prompt' | 'source' | 'sentAt' | 'transcriptPath'>, now = Date.now()): Promise<boolean> {
  const key = sameEventKey(hook);
  if (key === undefined) return true;
  const folder = eventMarkersFolder(stateDirectory);
  const marker = path.join(folder, createHash('sha256').update(key).digest('hex').slice(0, 32));
  try {
    await makePrivateFolder(folder);
    if (hook.event === 'SessionStart') await pruneMarkers(folder, now).catch(() => undefined);
    if (await created(marker)) return true;
    const stat = await fs.stat(marker).catch(() => undefined);
    if (stat !== undefined && now - stat.mtimeMs < SAME_EVENT_WINDOW_MS) return false;
    // An old marker: the same words typed again, a new event.
    await fs.rm(marker, { force: true });
    return await created(marker);
  } catch {
    return true;
  }
}

async function created(marker: string): Promise<boolean> {
  try {
    await fs.writeFile(marker, '', { flag: 'wx', mode: PRIVATE_FILE_MODE });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function pruneMarkers(folder: string, now: number): Promise<void> {
  for (const name of await fs.readdir(folder)) {
    const file = path.join(folder, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat !== undefined && now - stat.mtimeMs > MARKER_MAX_AGE_MS) await fs.rm(file, { force: true });
  }
}
