// What the user switched off, machine-wide, in one small file of the state folder
// (`memory-switches.json`, 0600): memory turned off or consent revoked for a workspace folder, a
// folder VS Code sees as untrusted, consent revoked for an endpoint, memory turned off everywhere.
// The extension, `graphiti-harness` and Disconnect write it; every hook event reads it fresh, so a
// switch made in one tool holds for the hooks of every agent at once. A mark on a folder covers
// the folders inside it.
import { readFileSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { normaliseEndpoint, type Logger } from '@graphiti-memory/memory-core';
import { isRecord, LockedJsonFile } from '../stores/locked-json-file.js';
import { sharedStateFiles } from './state-layout.js';

export const WORKSPACE_SWITCHES = ['off', 'revoked', 'untrusted'] as const;
export type WorkspaceSwitch = (typeof WORKSPACE_SWITCHES)[number];

/** When a switch was made and by which tool (`vscode`, `graphiti-harness`, …). */
export interface SwitchMark {
  readonly at: string;
  readonly by: string;
}

export interface MemorySwitchesRecord {
  readonly version: 1;
  readonly everywhere: { readonly off?: SwitchMark };
  /** Keyed by absolute folder path. */
  readonly workspaces: Readonly<Record<string, Readonly<Partial<Record<WorkspaceSwitch, SwitchMark>>>>>;
  /** Keyed by normalised endpoint URL. */
  readonly endpoints: Readonly<Record<string, { readonly revoked?: SwitchMark }>>;
}

/** One switch: memory off everywhere, a workspace folder's switch, or an endpoint's revoked consent. */
export type SwitchTarget =
  | { readonly everywhere: 'off' }
  | { readonly workspace: string; readonly switch: WorkspaceSwitch }
  | { readonly endpoint: string; readonly switch: 'revoked' };

export type MemorySwitchesRead =
  | { readonly ok: true; readonly switches: MemorySwitchesRecord }
  /** The file exists but is not a switches file: callers treat memory as switched off. */
  | { readonly ok: false; readonly problem: string };

/** Why the switches close memory for a folder and endpoint; the reasons are hook outcomes. */
export interface SwitchClosure {
  readonly reason: 'disabled' | 'no-consent' | 'untrusted';
  /** Names the switch, never a path or content. */
  readonly detail: string;
}

export const NO_SWITCHES: MemorySwitchesRecord = { version: 1, everywhere: {}, workspaces: {}, endpoints: {} };

export interface FileMemorySwitchesOptions {
  readonly filePath: string;
  readonly logger?: Logger;
}

export class FileMemorySwitches {
  readonly #file: LockedJsonFile<MemorySwitchesRecord>;

  constructor(options: FileMemorySwitchesOptions) {
    // Damaged switches fail closed: the file may hold an "off" or a revoke, so it is never set aside
    // and replaced by an empty one (memory would resume); hooks read it as closed until it is fixed.
    this.#file = new LockedJsonFile(options.filePath, (raw) => strictSwitches(raw), options.logger, {
      refuseDamaged: { whatToDo: 'memory stays off until it is fixed: restore it, or delete it to clear every switch (off, untrusted, revoked) and turn memory on again.' },
    });
  }

  /** The switches file of a state folder (its place is the state layout's). */
  static inStateFolder(stateDirectory: string, logger?: Logger): FileMemorySwitches {
    return new FileMemorySwitches({ filePath: sharedStateFiles(stateDirectory).memorySwitches, ...(logger === undefined ? {} : { logger }) });
  }

  get filePath(): string {
    return this.#file.filePath;
  }

  /** The switches now (a missing file: none). Cheap: one small read, no lock (writes are atomic). */
  async read(): Promise<MemorySwitchesRead> {
    let text: string;
    try {
      text = await fs.readFile(this.filePath, 'utf8');
    } catch (error) {
      return readFailure(this.filePath, error);
    }
    return parseText(this.filePath, text);
  }

  /** `read` without waiting on the event loop: for a synchronous `ConsentStore.get()`. */
  readSync(): MemorySwitchesRead {
    let text: string;
    try {
      text = readFileSync(this.filePath, 'utf8');
    } catch (error) {
      return readFailure(this.filePath, error);
    }
    return parseText(this.filePath, text);
  }

  /** Records the switch (kept when already made); true when the file changed. */
  async mark(target: SwitchTarget, by: string, now: Date = new Date()): Promise<boolean> {
    const key = targetKey(target);
    return this.#file.update((current) => {
      if (has(current, target, key)) return { result: false };
      return { next: withSwitch(current, target, key, { at: now.toISOString(), by }), result: true };
    });
  }

  /** Removes the switch; true when it was there. */
  async clear(target: SwitchTarget): Promise<boolean> {
    const key = targetKey(target);
    return this.#file.update((current) => (has(current, target, key) ? { next: withSwitch(current, target, key, undefined), result: true } : { result: false }));
  }
}

/**
 * Whether the switches close memory for hooks in `workspaceFolder` (or a folder inside a marked
 * one) sending to `endpoint`. Off wins over untrusted, untrusted over revoked.
 */
export function closedBySwitches(switches: MemorySwitchesRecord, workspaceFolder: string, endpoint: string): SwitchClosure | undefined {
  if (switches.everywhere.off !== undefined) return { reason: 'disabled', detail: 'memory is turned off everywhere (memory switches)' };
  const marks = Object.entries(switches.workspaces)
    .filter(([folder]) => contains(folder, workspaceFolder))
    .map(([, marked]) => marked);
  if (marks.some((marked) => marked.off !== undefined)) return { reason: 'disabled', detail: 'memory is turned off for this workspace (memory switches)' };
  if (marks.some((marked) => marked.untrusted !== undefined)) return { reason: 'untrusted', detail: 'this workspace is not trusted (memory switches)' };
  if (marks.some((marked) => marked.revoked !== undefined)) return { reason: 'no-consent', detail: 'consent was revoked for this workspace (memory switches)' };
  const revoked = switches.endpoints[normaliseEndpoint(endpoint) ?? endpoint]?.revoked ?? switches.endpoints[endpoint]?.revoked;
  if (revoked !== undefined) return { reason: 'no-consent', detail: 'consent was revoked for this endpoint (memory switches)' };
  return undefined;
}

/** True when `folder` is `inner` or one of its parents. */
function contains(folder: string, inner: string): boolean {
  const relative = path.relative(comparable(folder), comparable(inner));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function comparable(folder: string): string {
  const resolved = path.resolve(folder);
  // Windows and macOS folders are case-insensitive as a rule; a mark must not miss by case there.
  return process.platform === 'win32' || process.platform === 'darwin' ? resolved.toLowerCase() : resolved;
}

function targetKey(target: SwitchTarget): string {
  if ('everywhere' in target) return '';
  if ('workspace' in target) {
    if (!path.isAbsolute(target.workspace)) throw new Error(`memory switches: the workspace folder ${JSON.stringify(target.workspace)} is not an absolute path; pass the folder's absolute path.`);
    return path.resolve(target.workspace);
  }
  const endpoint = normaliseEndpoint(target.endpoint);
  if (endpoint === undefined || endpoint === '') {
    throw new Error(`memory switches: ${JSON.stringify(target.endpoint)} is not an endpoint URL; pass the http(s) URL of the Graphiti whose consent is revoked.`);
  }
  return endpoint;
}

function has(current: MemorySwitchesRecord, target: SwitchTarget, key: string): boolean {
  if ('everywhere' in target) return current.everywhere.off !== undefined;
  if ('workspace' in target) return current.workspaces[key]?.[target.switch] !== undefined;
  return current.endpoints[key]?.revoked !== undefined;
}

function withSwitch(current: MemorySwitchesRecord, target: SwitchTarget, key: string, mark: SwitchMark | undefined): MemorySwitchesRecord {
  if ('everywhere' in target) return { ...current, everywhere: mark === undefined ? {} : { off: mark } };
  if ('workspace' in target) {
    const { [key]: existing, ...others } = current.workspaces;
    const { [target.switch]: _dropped, ...kept } = existing ?? {};
    const next = mark === undefined ? kept : { ...kept, [target.switch]: mark };
    return { ...current, workspaces: Object.keys(next).length === 0 ? others : { ...others, [key]: next } };
  }
  const { [key]: _dropped, ...others } = current.endpoints;
  return { ...current, endpoints: mark === undefined ? others : { ...others, [key]: { revoked: mark } } };
}

function readFailure(filePath: string, error: unknown): MemorySwitchesRead {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { ok: true, switches: NO_SWITCHES };
  return { ok: false, problem: `${filePath} cannot be read (${code ?? 'unknown error'}); fix its permissions or delete it to clear every switch` };
}

function parseText(filePath: string, text: string): MemorySwitchesRead {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problem: `${filePath} is not JSON; delete it to clear every switch, or switch memory on or off again to rewrite it` };
  }
  const switches = parseSwitches(raw);
  return switches === undefined ? { ok: false, problem: `${filePath} is not a memory switches file (version 1); delete it to clear every switch` } : { ok: true, switches };
}

function strictSwitches(raw: unknown): MemorySwitchesRecord {
  const switches = parseSwitches(raw);
  if (switches === undefined) throw new Error('not a memory switches file (version 1)');
  return switches;
}

function parseSwitches(raw: unknown): MemorySwitchesRecord | undefined {
  if (raw === undefined) return NO_SWITCHES;
  if (!isRecord(raw) || raw['version'] !== 1) return undefined;
  const everywhere = isRecord(raw['everywhere']) ? raw['everywhere'] : {};
  const workspaces: Record<string, Partial<Record<WorkspaceSwitch, SwitchMark>>> = {};
  for (const [folder, marks] of Object.entries(isRecord(raw['workspaces']) ? raw['workspaces'] : {})) {
    if (!isRecord(marks)) continue;
    const kept: Partial<Record<WorkspaceSwitch, SwitchMark>> = {};
    for (const name of WORKSPACE_SWITCHES) {
      const mark = markOf(marks[name]);
      if (mark !== undefined) kept[name] = mark;
    }
    if (Object.keys(kept).length > 0) workspaces[folder] = kept;
  }
  const endpoints: Record<string, { revoked?: SwitchMark }> = {};
  for (const [endpoint, marks] of Object.entries(isRecord(raw['endpoints']) ? raw['endpoints'] : {})) {
    const revoked = isRecord(marks) ? markOf(marks['revoked']) : undefined;
    if (revoked !== undefined) endpoints[endpoint] = { revoked };
  }
  const off = markOf(everywhere['off']);
  return { version: 1, everywhere: off === undefined ? {} : { off }, workspaces, endpoints };
}

/** A mark is any object (so a hand-written `true`-like entry still counts as switched). */
function markOf(value: unknown): SwitchMark | undefined {
  if (value === undefined || value === null || value === false) return undefined;
  if (!isRecord(value)) return { at: '', by: 'unknown' };
  return { at: typeof value['at'] === 'string' ? value['at'] : '', by: typeof value['by'] === 'string' ? value['by'] : 'unknown' };
}
