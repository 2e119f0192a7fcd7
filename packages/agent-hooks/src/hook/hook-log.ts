// What the hook leaves behind, since it may print nothing: one line per run (time, event,
// outcome, ms) for `hooks status`, and failures with their error class. Never content.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { appendPrivateFile, ignoredLines, isStorageFaultCode, PRIVATE_FILE_MODE, stateFolderRefusal, tightenStateFolder, type ResolvedMemoryConfig } from '@graphiti-memory/memory-node-storage';

export interface HookRun {
  readonly time: string;
  readonly event: string;
  /** `context` (printed memory), `empty`, `cached`, `queued`, `no-consent`, `bad-input`, `bad-config`, `failed`, … */
  readonly outcome: string;
  readonly ms: number;
  /** An error class or a short reason; never content. */
  readonly detail?: string;
  /** `server`: answered by the background hook server; `in-process`: by the runner itself. */
  readonly via?: 'server' | 'in-process';
  /** The runner build that ran it (its core's id): tells apart the runners of two installs. */
  readonly build?: string;
}

export const HOOK_LOG_FOLDER = 'hooks';
const RUNS_FILE = 'runs.jsonl';
const LOG_FILE = 'hook.log';
/** The run log is cut back to its newest lines past this size. */
const MAX_RUNS_BYTES = 256 * 1024;
const KEEP_RUNS = 200;

export function hookLogFolder(stateDirectory: string): string {
  return path.join(stateDirectory, HOOK_LOG_FOLDER);
}

/**
 * Runs a full or read-only disk would not take, per state folder, in this process (a warm hook
 * server): written ahead of the next run that can be, so the fault that refused them is logged
 * once space returns. Bounded; the oldest go first.
 */
const unwritten = new Map<string, HookRun[]>();
const MAX_UNWRITTEN = 50;

/** Appends a run (and, for failures, a log line); never throws. */
export async function recordHookRun(stateDirectory: string, run: HookRun): Promise<void> {
  const waiting = [...(unwritten.get(stateDirectory) ?? []), run].slice(-MAX_UNWRITTEN);
  unwritten.delete(stateDirectory);
  try {
    // Another user's folder (or a link) gets nothing, not even the line saying so: stderr says it.
    const refusal = await stateFolderRefusal(stateDirectory);
    if (refusal !== undefined) {
      process.stderr.write(`graphiti-memory: ${refusal.message}\n`);
      return;
    }
    // Every run passes here: a state folder an older version left open to others is closed once.
    await tightenStateFolder(stateDirectory);
    const folder = hookLogFolder(stateDirectory);
    const runs = path.join(folder, RUNS_FILE);
    await appendPrivateFile(runs, waiting.map((each) => `${JSON.stringify(each)}\n`).join(''));
    const failures = waiting.filter((each) => each.detail !== undefined);
    if (failures.length > 0) {
      await appendPrivateFile(path.join(folder, LOG_FILE), failures.map((each) => `${each.time} ${each.event} ${each.outcome} ${each.detail}\n`).join(''));
    }
    const size = (await fs.stat(runs)).size;
    if (size > MAX_RUNS_BYTES) {
      const lines = (await fs.readFile(runs, 'utf8')).split('\n').filter((line) => line !== '');
      await fs.writeFile(runs, `${lines.slice(-KEEP_RUNS).join('\n')}\n`, { mode: PRIVATE_FILE_MODE });
    }
  } catch (error) {
    // The log is a convenience: a read-only state folder must not turn into a failed hook. A
    // refused write keeps the runs for the next attempt (torn halves of it are skipped on read).
    if (isStorageFaultCode((error as NodeJS.ErrnoException).code)) unwritten.set(stateDirectory, waiting);
  }
}

/** One line in hook.log (a reason or an error class; never content); never throws. */
export async function appendHookLog(stateDirectory: string, line: string, now = new Date()): Promise<void> {
  try {
    await appendPrivateFile(path.join(hookLogFolder(stateDirectory), LOG_FILE), `${now.toISOString()} ${line}\n`);
  } catch {
    // As above: the log must not become the failure.
  }
}

/** Remembers which ignored project keys hook.log last named, so each change is logged once. */
const IGNORED_MARK_FILE = 'ignored-project-keys';

/**
 * Names in hook.log, once per distinct set, what of a project file was not applied (keys, files and
 * reasons only); nothing when `ignored` is empty or unchanged. Never throws.
 */
export async function logIgnoredProjectKeysOnce(stateDirectory: string, ignored: ResolvedMemoryConfig['ignored'], now = new Date()): Promise<void> {
  if (ignored.length === 0) return;
  try {
    const mark = path.join(hookLogFolder(stateDirectory), IGNORED_MARK_FILE);
    const digest = createHash('sha256').update(JSON.stringify(ignored)).digest('hex');
    const previous = await fs.readFile(mark, 'utf8').catch(() => '');
    if (previous.trim() === digest) return;
    // Worded as `config show` and `hooks status` word them; appendHookLog makes the folder.
    for (const line of ignoredLines({ ignored })) await appendHookLog(stateDirectory, `project-file ${line}`, now);
    await fs.writeFile(mark, `${digest}\n`, { mode: PRIVATE_FILE_MODE });
  } catch {
    // As above: the log must not become the failure.
  }
}

/** The newest `limit` runs, newest last. */
export async function readHookRuns(stateDirectory: string, limit = 10): Promise<HookRun[]> {
  let text: string;
  try {
    text = await fs.readFile(path.join(hookLogFolder(stateDirectory), RUNS_FILE), 'utf8');
  } catch {
    return [];
  }
  const runs: HookRun[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = JSON.parse(line) as HookRun;
      if (typeof parsed.event === 'string' && typeof parsed.outcome === 'string') runs.push(parsed);
    } catch {
      // A torn line from a killed hook: skipped.
    }
  }
  return runs.slice(-limit);
}
