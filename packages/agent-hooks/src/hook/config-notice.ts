// A configuration problem that keeps memory off is told to the user, once per session, in the
// host's channel for user-facing messages: top-level `systemMessage` of the hook's JSON output
// (Claude Code; VS Code reads the same format). Never `additionalContext`: that goes to the model.
// "Once" is a marker file per session and problem in the state folder, made with `wx`, so two
// events at once (a hook server answers several) still say it once.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '@graphiti-memory/memory-node-storage';
import { hookLogFolder } from './hook-log.js';

/** Events whose output the host shows the user (a Stop's output is not read for messages by every host). */
const NOTICE_EVENTS: ReadonlySet<string> = new Set(['SessionStart', 'UserPromptSubmit']);
/** Markers older than this are removed when a new one is made (sessions that ended long ago). */
const MARKER_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** The text told to the user for `problems` (each names the file, the key and the nearest valid key). */
export function configNoticeText(problems: readonly string[]): string {
  const named = problems.join('; ');
  return `Graphiti Memory is off: its configuration has a problem. ${named}${/[.?!]$/.test(named) ? '' : '.'} Fix that key in the file (keep the file: it holds your user key), then run \`graphiti-harness doctor\`.`;
}

/**
 * The hook output that tells the user `text`, when this event may show one and this session has
 * not been told it yet; `undefined` otherwise. Never throws (a marker that cannot be written
 * means the message is said, not lost).
 */
export async function configNoticeOutput(stateDirectory: string, event: string, sessionId: string | undefined, text: string): Promise<string | undefined> {
  if (!NOTICE_EVENTS.has(event)) return undefined;
  if (sessionId !== undefined && !(await firstInSession(stateDirectory, sessionId, text))) return undefined;
  return `${JSON.stringify({ systemMessage: text })}\n`;
}

async function firstInSession(stateDirectory: string, sessionId: string, text: string): Promise<boolean> {
  const folder = path.join(hookLogFolder(stateDirectory), 'notices');
  const marker = path.join(folder, createHash('sha256').update(`${sessionId}\n${text}`).digest('hex').slice(0, 32));
  try {
    await makePrivateFolder(folder);
    await fs.writeFile(marker, '', { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EEXIST';
  }
  await removeOldMarkers(folder).catch(() => undefined);
  return true;
}

async function removeOldMarkers(folder: string): Promise<void> {
  const now = Date.now();
  for (const name of await fs.readdir(folder)) {
    const file = path.join(folder, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat !== undefined && now - stat.mtimeMs > MARKER_MAX_AGE_MS) await fs.rm(file, { force: true });
  }
}
