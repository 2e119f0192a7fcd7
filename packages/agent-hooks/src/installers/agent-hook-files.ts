// Installs, removes and reports Graphiti Memory's entries in the hook files assistants read, as
// each assistant's descriptor (assistants/) lays them out. A file shared with the user's own
// settings (Claude Code's `~/.claude/settings.json`) is merged: every other key and hook kept. A
// file of ours alone (`~/.copilot/hooks/graphiti-memory.json`) is written whole and deleted once
// empty. Either way: written atomically, backed up first, and left untouched when nothing
// changes, so installing twice adds nothing.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { HANDLER_EVENTS, type AssistantDescriptor, type Environment, type TrustRecorded, type TrustStatus } from '../assistants/assistant-descriptor.js';
import { trustStep } from './trust-steps.js';
import { AGENT_HOOK_TARGETS, assistantDescriptor, type AgentHookTarget } from '../assistants/assistant-registry.js';
import { runnerStatus, type RunnerStatus } from './runner-install.js';
import { hookCommandLine, hookCommandScript, isOurHookCommand, type AgentHookCommand } from './hook-command.js';
import { readTextIfPresent } from './text-file.js';

export { AGENT_HOOK_TARGETS, type AgentHookTarget };
export { COPILOT_HOOKS_FILE_NAME } from '../assistants/copilot-vscode.js';

export const BACKUP_SUFFIX = '.graphiti-memory-backup';

/** The hook file of `target` in `home` (`env`: the assistant's own variables, e.g. `CODEX_HOME`). */
export function agentHookFile(target: AgentHookTarget, home: string, env: Environment = {}): string {
  return assistantDescriptor(target).hookFile.path(home, env);
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
  /** The assistant's trust step for our entries (Codex): what was recorded, or the step left to the user. */
  readonly trust?: TrustRecorded;
}

export interface InstallAgentHooksOptions {
  readonly target: AgentHookTarget;
  /** The home folder whose hook files are changed (tests pass a temporary one). */
  readonly home: string;
  readonly command: AgentHookCommand;
  /** The assistants' own variables (`CODEX_HOME`); default none. */
  readonly env?: Environment;
}

/** Writes our entries (replacing earlier ones of ours); throws when the file exists but is not JSON. */
export async function installAgentHooks(options: InstallAgentHooksOptions): Promise<AgentHookChange> {
  const assistant = assistantDescriptor(options.target);
  const file = assistant.hookFile.path(options.home, options.env ?? {});
  const current = await readJsonObject(file);
  const next = assistant.hookFile.format.shared ? withOurEntries(assistant, current ?? {}, options.command) : ourOwnFile(assistant, options.command);
  const change = await writeIfChanged(options.target, file, current, next);
  if (assistant.trust === null) return change;
  // Exactly the entries just written: the assistant runs them only once trusted.
  const trust = await trustStep(assistant.trust.step).record({ home: options.home, env: options.env ?? {}, hookFile: file });
  return { ...change, trust };
}

/** Removes exactly our entries; a file of ours alone is deleted when nothing else is left in it. */
export async function uninstallAgentHooks(options: { readonly target: AgentHookTarget; readonly home: string; readonly env?: Environment }): Promise<AgentHookChange> {
  const assistant = assistantDescriptor(options.target);
  const file = assistant.hookFile.path(options.home, options.env ?? {});
  const current = await readJsonObject(file);
  if (current === undefined) return { target: options.target, file, changed: false, entries: 0 };
  // The trust records of our entries go first, while the entries still say which they are.
  const trust = assistant.trust === null ? undefined : await trustStep(assistant.trust.step).forget({ home: options.home, env: options.env ?? {}, hookFile: file });
  const removed = await withoutOurs(options.target, assistant, file, current);
  return trust === undefined ? removed : { ...removed, trust };
}

async function withoutOurs(target: AgentHookTarget, assistant: AssistantDescriptor, file: string, current: JsonObject): Promise<AgentHookChange> {
  const next = withoutOurEntries(current);
  if (!assistant.hookFile.format.shared && Object.keys(hooksOf(next)).length === 0) {
    // Nothing but ours was in it: no copy is worth keeping, and the backup of our last write (ours too) goes with it.
    await fs.rm(file, { force: true });
    await fs.rm(`${file}${BACKUP_SUFFIX}`, { force: true });
    return { target, file, changed: true, entries: 0 };
  }
  return writeIfChanged(target, file, current, next);
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
  /** Whether the assistant will run our entries, for an assistant with a trust step and entries of ours. */
  readonly trust?: TrustStatus;
}

/** Every registered assistant's hook file, in the registry's order. */
export async function agentHooksStatus(home: string, env: Environment = {}): Promise<AgentHookStatus[]> {
  return Promise.all(AGENT_HOOK_TARGETS.map((target) => agentHookStatus(target, home, env)));
}

export async function agentHookStatus(target: AgentHookTarget, home: string, env: Environment = {}): Promise<AgentHookStatus> {
  const assistant = assistantDescriptor(target);
  const file = assistant.hookFile.path(home, env);
  try {
    const current = await readJsonObject(file);
    if (current === undefined) return { target, file, exists: false, entries: [], runner: null };
    const entries = ourEntries(current, assistant);
    const script = entries.map((entry) => hookCommandScript(entry.command)).find((found) => found !== undefined);
    const trust = assistant.trust === null || entries.length === 0 ? undefined : await trustStep(assistant.trust.step).status({ home, env, hookFile: file });
    return { target, file, exists: true, entries, runner: script === undefined ? null : await runnerStatus(script), ...(trust === undefined ? {} : { trust }) };
  } catch (error) {
    return { target, file, exists: true, entries: [], runner: null, problem: error instanceof Error ? error.message : String(error) };
  }
}

type JsonObject = Record<string, unknown>;

async function readJsonObject(file: string): Promise<JsonObject | undefined> {
  const text = await readTextIfPresent(file);
  if (text === undefined) return undefined;
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
  const entries = ourEntries(next, assistantDescriptor(target)).length;
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

/** One entry of ours for `event`, as the assistant's file format spells it. */
function ourEntry(assistant: AssistantDescriptor, event: (typeof HANDLER_EVENTS)[number], command: AgentHookCommand): JsonObject {
  const { format } = assistant.hookFile;
  const agent = format.agentArgument ? assistant.target : undefined;
  const seconds = assistant.timeoutSeconds[event];
  return {
    ...(format.named ? { name: `graphiti-memory-${event}` } : {}),
    type: 'command',
    [format.commandKeys.posix]: hookCommandLine(command, event, 'posix', agent),
    ...(format.commandKeys.windows === null ? {} : { [format.commandKeys.windows]: hookCommandLine(command, event, 'powershell', agent) }),
    [format.timeoutKey]: format.timeoutUnit === 'milliseconds' ? seconds * 1000 : seconds,
  };
}

/** The events the assistant has, with its name for each. */
function hostEvents(assistant: AssistantDescriptor): Array<[(typeof HANDLER_EVENTS)[number], string]> {
  return HANDLER_EVENTS.flatMap((event) => {
    const name = assistant.events[event];
    return name === null ? [] : [[event, name] as [(typeof HANDLER_EVENTS)[number], string]];
  });
}

/** A shared file with our entries: the user's own kept, ours (earlier ones removed) appended per event. */
function withOurEntries(assistant: AssistantDescriptor, current: JsonObject, command: AgentHookCommand): JsonObject {
  const cleaned = withoutOurEntries(current);
  const hooks: JsonObject = { ...hooksOf(cleaned) };
  for (const [event, name] of hostEvents(assistant)) {
    const groups = Array.isArray(hooks[name]) ? [...(hooks[name] as unknown[])] : [];
    const entry = ourEntry(assistant, event, command);
    groups.push(assistant.hookFile.format.layout === 'grouped' ? { hooks: [entry] } : entry);
    hooks[name] = groups;
  }
  return { ...cleaned, hooks };
}

/** A file of ours alone. */
function ourOwnFile(assistant: AssistantDescriptor, command: AgentHookCommand): JsonObject {
  const hooks: JsonObject = {};
  for (const [event, name] of hostEvents(assistant)) {
    const entry = ourEntry(assistant, event, command);
    hooks[name] = [assistant.hookFile.format.layout === 'grouped' ? { hooks: [entry] } : entry];
  }
  return { version: 1, hooks };
}

function hooksOf(file: JsonObject): JsonObject {
  return isObject(file['hooks']) ? file['hooks'] : {};
}

/** Whether a hook entry is ours, under any key a format puts a command line. */
function isOurHook(hook: JsonObject): boolean {
  return ['command', 'bash', 'powershell', 'windows'].some((key) => isOurHookCommand(hook[key]));
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
        const inner = entry['hooks'].filter((hook) => !(isObject(hook) && isOurHook(hook)));
        if (inner.length === entry['hooks'].length) kept.push(entry);
        else if (inner.length > 0) kept.push({ ...entry, hooks: inner });
      } else if (!isOurHook(entry)) {
        kept.push(entry);
      }
    }
    if (kept.length > 0) hooks[event] = kept;
  }
  const { hooks: _previous, ...rest } = file;
  return Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest;
}

/** Our entries of a file, with the POSIX command line the assistant runs. */
function ourEntries(file: JsonObject, assistant: AssistantDescriptor): Array<{ event: string; command: string }> {
  const found: Array<{ event: string; command: string }> = [];
  const key = assistant.hookFile.format.commandKeys.posix;
  for (const [event, entries] of Object.entries(hooksOf(file))) {
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      if (!isObject(entry)) continue;
      const commands = Array.isArray(entry['hooks']) ? entry['hooks'].filter(isObject) : [entry];
      for (const hook of commands) {
        const line = [hook[key], hook['command'], hook['bash']].find((candidate) => isOurHookCommand(candidate));
        if (line !== undefined) found.push({ event, command: String(line) });
      }
    }
  }
  return found;
}

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
