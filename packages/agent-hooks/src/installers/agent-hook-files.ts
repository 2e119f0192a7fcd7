// Installs, removes and reports Graphiti Memory's entries in the hook files agents read:
// `~/.claude/settings.json` (Claude Code, and VS Code with chat.useClaudeHooks) and
// `~/.copilot/hooks/graphiti-memory.json` (Copilot agent mode). Claude's file is shared with the
// user's own settings: it is merged (every other key and hook kept), written atomically, backed up
// first, and left untouched when nothing changes, so installing twice adds nothing.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { runnerStatus, type RunnerStatus } from './runner-install.js';
import {
  AGENT_HOOK_EVENTS,
  AGENT_HOOK_TIMEOUT_SECONDS,
  hookCommandLine,
  hookCommandScript,
  isOurHookCommand,
  type AgentHookCommand,
  type AgentHookEvent,
} from './hook-command.js';

export const AGENT_HOOK_TARGETS = ['claude', 'copilot'] as const;
export type AgentHookTarget = (typeof AGENT_HOOK_TARGETS)[number];

export const BACKUP_SUFFIX = '.graphiti-memory-backup';
export const COPILOT_HOOKS_FILE_NAME = 'graphiti-memory.json';

/** Copilot's own (camelCase) names of the events; VS Code maps them to the Claude names. */
const COPILOT_EVENT_NAMES: Readonly<Record<AgentHookEvent, string>> = {
  SessionStart: 'sessionStart',
  UserPromptSubmit: 'userPromptSubmitted',
  Stop: 'agentStop',
  SessionEnd: 'sessionEnd',
};

export function agentHookFile(target: AgentHookTarget, home: string): string {
  return target === 'claude' ? path.join(home, '.claude', 'settings.json') : path.join(home, '.copilot', 'hooks', COPILOT_HOOKS_FILE_NAME);
}

export interface AgentHookChange {
  readonly target: AgentHookTarget;
  readonly file: string;
  /** False when the file already said exactly this (nothing written). */
  readonly changed: boolean;
  /** The previous file's copy, when there was one and it changed. */
  readonly backup?: string;
  /** Our entries in the file after the change. */
  readonly entries: number;
}

export interface InstallAgentHooksOptions {
  readonly target: AgentHookTarget;
  /** The home folder whose hook files are changed (tests pass a temporary one). */
  readonly home: string;
  readonly command: AgentHookCommand;
}

/** Writes our entries (replacing earlier ones of ours); throws when the file exists but is not JSON. */
export async function installAgentHooks(options: InstallAgentHooksOptions): Promise<AgentHookChange> {
  const file = agentHookFile(options.target, options.home);
  const current = await readJsonObject(file);
  const next = options.target === 'claude' ? withClaudeEntries(current ?? {}, options) : copilotHooksFile(options);
  return writeIfChanged(options.target, file, current, next);
}

/** Removes exactly our entries; the Copilot file (ours alone) is deleted when nothing else is left in it. */
export async function uninstallAgentHooks(options: { readonly target: AgentHookTarget; readonly home: string }): Promise<AgentHookChange> {
  const file = agentHookFile(options.target, options.home);
  const current = await readJsonObject(file);
  if (current === undefined) return { target: options.target, file, changed: false, entries: 0 };
  const next = withoutOurEntries(current);
  if (options.target === 'copilot' && Object.keys(hooksOf(next)).length === 0) {
    const backup = `${file}${BACKUP_SUFFIX}`;
    await fs.copyFile(file, backup);
    await fs.rm(file, { force: true });
    return { target: options.target, file, changed: true, backup, entries: 0 };
  }
  return writeIfChanged(options.target, file, current, next);
}

export interface AgentHookStatus {
  readonly target: AgentHookTarget;
  readonly file: string;
  readonly exists: boolean;
  /** Our entries: the event (as the host names it) and the command. */
  readonly entries: ReadonlyArray<{ readonly event: string; readonly command: string }>;
  /**
   * The runner our entries run (`{ path, version, present }`; `version` from the copy's
   * runner.json, `null` when it is no copy of ours); `null` when there are no entries.
   */
  readonly runner: RunnerStatus | null;
  /** Set when the file exists but is not a JSON object. */
  readonly problem?: string;
}

export async function agentHooksStatus(home: string): Promise<AgentHookStatus[]> {
  return Promise.all(
    AGENT_HOOK_TARGETS.map(async (target): Promise<AgentHookStatus> => {
      const file = agentHookFile(target, home);
      try {
        const current = await readJsonObject(file);
        if (current === undefined) return { target, file, exists: false, entries: [], runner: null };
        const entries = ourEntries(current);
        const script = entries.map((entry) => hookCommandScript(entry.command)).find((found) => found !== undefined);
        return { target, file, exists: true, entries, runner: script === undefined ? null : await runnerStatus(script) };
      } catch (error) {
        return { target, file, exists: true, entries: [], runner: null, problem: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
}

type JsonObject = Record<string, unknown>;

async function readJsonObject(file: string): Promise<JsonObject | undefined> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON; fix it (or move it away) and run the command again — it was left untouched`);
  }
  if (!isObject(parsed)) throw new Error(`${file} is not a JSON object; fix it and run the command again — it was left untouched`);
  return parsed;
}

async function writeIfChanged(target: AgentHookTarget, file: string, current: JsonObject | undefined, next: JsonObject): Promise<AgentHookChange> {
  const entries = ourEntries(next).length;
  if (current !== undefined && JSON.stringify(current) === JSON.stringify(next)) return { target, file, changed: false, entries };
  await fs.mkdir(path.dirname(file), { recursive: true });
  let backup: string | undefined;
  if (current !== undefined) {
    backup = `${file}${BACKUP_SUFFIX}`;
    await fs.copyFile(file, backup);
  }
  await writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
  return { target, file, changed: true, entries, ...(backup === undefined ? {} : { backup }) };
}

function withClaudeEntries(current: JsonObject, options: InstallAgentHooksOptions): JsonObject {
  const cleaned = withoutOurEntries(current);
  const hooks: JsonObject = { ...hooksOf(cleaned) };
  for (const event of AGENT_HOOK_EVENTS) {
    const groups = Array.isArray(hooks[event]) ? [...(hooks[event] as unknown[])] : [];
    groups.push({
      hooks: [{ type: 'command', command: hookCommandLine(options.command, event, 'posix'), timeout: AGENT_HOOK_TIMEOUT_SECONDS[event] }],
    });
    hooks[event] = groups;
  }
  return { ...cleaned, hooks };
}

function copilotHooksFile(options: InstallAgentHooksOptions): JsonObject {
  const hooks: JsonObject = {};
  for (const event of AGENT_HOOK_EVENTS) {
    hooks[COPILOT_EVENT_NAMES[event]] = [
      {
        type: 'command',
        command: hookCommandLine(options.command, event, 'posix'),
        windows: hookCommandLine(options.command, event, 'powershell'),
        timeoutSec: AGENT_HOOK_TIMEOUT_SECONDS[event],
      },
    ];
  }
  return { version: 1, hooks };
}

function hooksOf(file: JsonObject): JsonObject {
  return isObject(file['hooks']) ? file['hooks'] : {};
}

/** The file without our entries; groups and events left empty by that are removed. */
function withoutOurEntries(file: JsonObject): JsonObject {
  if (!isObject(file['hooks'])) return file;
  const hooks: JsonObject = {};
  for (const [event, entries] of Object.entries(file['hooks'])) {
    if (!Array.isArray(entries)) {
      hooks[event] = entries;
      continue;
    }
    const kept: unknown[] = [];
    for (const entry of entries) {
      if (!isObject(entry)) {
        kept.push(entry);
      } else if (Array.isArray(entry['hooks'])) {
        const inner = entry['hooks'].filter((hook) => !(isObject(hook) && isOurHookCommand(hook['command'])));
        if (inner.length === entry['hooks'].length) kept.push(entry);
        else if (inner.length > 0) kept.push({ ...entry, hooks: inner });
      } else if (!isOurHookCommand(entry['command'])) {
        kept.push(entry);
      }
    }
    if (kept.length > 0) hooks[event] = kept;
  }
  const { hooks: _previous, ...rest } = file;
  return Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest;
}

function ourEntries(file: JsonObject): Array<{ event: string; command: string }> {
  const found: Array<{ event: string; command: string }> = [];
  for (const [event, entries] of Object.entries(hooksOf(file))) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      if (!isObject(entry)) continue;
      const commands = Array.isArray(entry['hooks']) ? entry['hooks'].filter(isObject) : [entry];
      for (const hook of commands) if (isOurHookCommand(hook['command'])) found.push({ event, command: String(hook['command']) });
    }
  }
  return found;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
