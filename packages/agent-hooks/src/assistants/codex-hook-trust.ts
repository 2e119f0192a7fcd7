// Codex runs a hook from `hooks.json` only once the user trusted it: `[hooks.state."<key>"]
// trusted_hash = "sha256:…"` in `$CODEX_HOME/config.toml`, which Codex's own `/hooks` screen
// writes. Untrusted hooks are skipped without a word. As Codex computes them (codex-rs
// hooks/src/engine/discovery.rs and config/src/fingerprint.rs; checked against Codex 0.169.0's own
// `hooks/list`, see codex-hook-trust.test.ts):
// - the key is `<absolute hooks.json path>:<event in snake_case>:<group index>:<handler index>`;
// - the hash is `sha256:` + the hex SHA-256 of the compact JSON, keys sorted at every level, of the
//   hook's normalised identity `{event_name, hooks: [{type: "command", command, timeout, async}]}`
//   (the group's matcher and any unset field left out).
// The install records exactly the hooks it wrote. config.toml is the user's file: it is edited
// textually (our tables added or changed, every other byte kept), and the edit is kept only when a
// TOML parser reads the result as the same configuration with our entries added; otherwise nothing
// is written and the user is told the one step to take instead.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import writeFileAtomic from 'write-file-atomic';
import type { Environment, TrustRecorded, TrustStatus, TrustStep } from './assistant-descriptor.js';
import { CODEX_TRUST_STEP, codexHome } from './codex-home.js';
import { readTextIfPresent } from '../installers/text-file.js';


const EVENT_LABELS: Readonly<Record<string, string>> = {
  SessionStart: 'session_start',
  UserPromptSubmit: 'user_prompt_submit',
  Stop: 'stop',
  SessionEnd: 'session_end',
  PreToolUse: 'pre_tool_use',
  PostToolUse: 'post_tool_use',
  PermissionRequest: 'permission_request',
  PreCompact: 'pre_compact',
  PostCompact: 'post_compact',
};

export interface CodexHookIdentity {
  readonly key: string;
  readonly hash: string;
}

/** Codex's persisted trust key of one hook. */
export function codexHookKey(hooksFile: string, event: string, group: number, handler: number): string {
  return `${path.resolve(hooksFile)}:${EVENT_LABELS[event] ?? event}:${group}:${handler}`;
}

/** Codex's hash of one command hook (`timeout` in seconds as the file says it; Codex's default 600). */
export function codexHookHash(event: string, hook: { readonly command: string; readonly timeout?: number; readonly async?: boolean; readonly statusMessage?: string }): string {
  const handler = {
    type: 'command',
    command: hook.command,
    timeout: Math.max(1, hook.timeout ?? 600),
    async: hook.async ?? false,
    ...(hook.statusMessage === undefined ? {} : { statusMessage: hook.statusMessage }),
  };
  const identity = { event_name: EVENT_LABELS[event] ?? event, hooks: [handler] };
  return `sha256:${createHash('sha256').update(JSON.stringify(sorted(identity))).digest('hex')}`;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]));
  }
  return value;
}

/** The key and hash of each hook of ours in a hooks.json (`isOurs` tells a command line of ours). */
export function ourCodexHooks(hooksFile: string, file: unknown, isOurs: (command: unknown) => boolean): CodexHookIdentity[] {
  const hooks = record(record(file)?.['hooks']) ?? {};
  const found: CodexHookIdentity[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, groupIndex) => {
      const handlers = record(group)?.['hooks'];
      if (!Array.isArray(handlers)) return;
      handlers.forEach((handler, handlerIndex) => {
        const hook = record(handler);
        if (hook === undefined || hook['type'] !== 'command' || !isOurs(hook['command'])) return;
        found.push({
          key: codexHookKey(hooksFile, event, groupIndex, handlerIndex),
          hash: codexHookHash(event, {
            command: String(hook['command']),
            ...(typeof hook['timeout'] === 'number' ? { timeout: hook['timeout'] } : {}),
            ...(typeof hook['async'] === 'boolean' ? { async: hook['async'] } : {}),
            ...(typeof hook['statusMessage'] === 'string' ? { statusMessage: hook['statusMessage'] } : {}),
          }),
        });
      });
    });
  }
  return found;
}

export type TrustEdit = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly problem: string };

/**
 * config.toml's text with `trusted_hash` set for `trust` and the tables of `forget` removed; every
 * other line kept as it was. Refused (with why) when the file is not valid TOML, or when the result
 * would not read as the same configuration with exactly those entries changed.
 */
export function withTrustedHashes(text: string, trust: readonly CodexHookIdentity[], forget: readonly string[] = []): TrustEdit {
  let before: Record<string, unknown>;
  try {
    before = parseToml(text) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, problem: `it is not valid TOML (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
  const lines = text === '' ? [] : text.split('\n');
  const trailingNewline = text === '' || text.endsWith('\n');
  if (trailingNewline && lines.at(-1) === '') lines.pop();
  const changed = new Set([...trust.map((entry) => entry.key), ...forget]);
  for (const key of forget) removeTable(lines, key);
  for (const entry of trust) {
    const table = findTable(lines, entry.key);
    const line = `trusted_hash = ${tomlString(entry.hash)}`;
    if (table === undefined) {
      if (lines.length > 0 && lines.at(-1)?.trim() !== '') lines.push('');
      lines.push(`[hooks.state.${tomlString(entry.key)}]`, line);
      continue;
    }
    const existing = lines.slice(table.start + 1, table.end).findIndex((candidate) => /^\s*trusted_hash\s*=/.test(candidate));
    if (existing >= 0) lines[table.start + 1 + existing] = line;
    else lines.splice(table.start + 1, 0, line);
  }
  const next = `${lines.join('\n')}\n`;
  let after: Record<string, unknown>;
  try {
    after = parseToml(next) as Record<string, unknown>;
  } catch (error) {
    return { ok: false, problem: `the edited file would not be valid TOML (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): hooks or hooks.state are written in a form the install does not edit` };
  }
  const afterState = record(record(after['hooks'])?.['state']) ?? {};
  for (const entry of trust) {
    if (record(afterState[entry.key])?.['trusted_hash'] !== entry.hash) return { ok: false, problem: `the edit would not set the trust of ${entry.key}` };
  }
  if (JSON.stringify(sorted(withoutKeys(before, changed))) !== JSON.stringify(sorted(withoutKeys(after, changed)))) {
    return { ok: false, problem: 'the edit would change more than our hooks\' trust entries' };
  }
  return { ok: true, text: next === text ? text : next };
}

/** The configuration without the hooks.state tables of `keys` (and the tables they leave empty). */
function withoutKeys(config: Record<string, unknown>, keys: ReadonlySet<string>): Record<string, unknown> {
  const hooks = record(config['hooks']);
  const state = record(hooks?.['state']);
  if (hooks === undefined || state === undefined) return config;
  const keptState = Object.fromEntries(Object.entries(state).filter(([key]) => !keys.has(key)));
  const { state: _state, ...otherHooks } = hooks;
  const keptHooks = Object.keys(keptState).length > 0 ? { ...otherHooks, state: keptState } : otherHooks;
  const { hooks: _hooks, ...rest } = config;
  return Object.keys(keptHooks).length > 0 ? { ...rest, hooks: keptHooks } : rest;
}

const HEADER = /^\s*\[\s*hooks\s*\.\s*state\s*\.\s*("(?:[^"\\]|\\.)*"|'[^']*')\s*\]\s*(?:#.*)?$/;
const ANY_HEADER = /^\s*\[/;

/** Lines [start, end) of the `[hooks.state."<key>"]` table, `end` the next header (or the end). */
function findTable(lines: readonly string[], key: string): { start: number; end: number } | undefined {
  for (let index = 0; index < lines.length; index++) {
    const match = HEADER.exec(lines[index] ?? '');
    if (match?.[1] === undefined || tomlKey(match[1]) !== key) continue;
    let end = index + 1;
    while (end < lines.length && !ANY_HEADER.test(lines[end] ?? '')) end++;
    return { start: index, end };
  }
  return undefined;
}

function removeTable(lines: string[], key: string): void {
  const table = findTable(lines, key);
  if (table === undefined) return;
  let start = table.start;
  // The blank line the install put before it goes with it.
  if (start > 0 && lines[start - 1]?.trim() === '') start--;
  lines.splice(start, table.end - start);
}

/** A quoted TOML key's value. */
function tomlKey(quoted: string): string | undefined {
  if (quoted.startsWith("'")) return quoted.slice(1, -1);
  try {
    return (parseToml(`k = ${quoted}`) as { k: string }).k;
  } catch {
    return undefined;
  }
}

/** A TOML basic string (JSON's escapes are TOML's, but for `\u` of control characters, which both spell alike). */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

async function ourHooksIn(hooksFile: string, isOurs: (command: unknown) => boolean): Promise<CodexHookIdentity[]> {
  const text = await readTextIfPresent(hooksFile);
  if (text === undefined || text.trim() === '') return [];
  try {
    return ourCodexHooks(hooksFile, JSON.parse(text), isOurs);
  } catch {
    return [];
  }
}

/** The trust step, for hooks whose command lines `isOurs` recognises. */
export function codexTrustStep(isOurs: (command: unknown) => boolean): TrustStep {
  const configOf = (options: { home: string; env: Environment }) => path.join(codexHome(options.home, options.env), 'config.toml');
  const edit = async (configFile: string, trust: readonly CodexHookIdentity[], forget: readonly string[]): Promise<TrustRecorded> => {
    const text = (await readTextIfPresent(configFile)) ?? '';
    const edited = withTrustedHashes(text, trust, forget);
    if (!edited.ok) return { file: configFile, changed: false, manualStep: `${configFile} was left untouched: ${edited.problem}. Instead, ${CODEX_TRUST_STEP}.` };
    if (edited.text === text) return { file: configFile, changed: false };
    await fs.mkdir(path.dirname(configFile), { recursive: true });
    if (text !== '') await fs.copyFile(configFile, `${configFile}.graphiti-memory-backup`);
    await writeFileAtomic(configFile, edited.text);
    return { file: configFile, changed: true };
  };
  return {
    async record(options) {
      return edit(configOf(options), await ourHooksIn(options.hookFile, isOurs), []);
    },
    // Before our entries leave hooks.json: exactly the trust entries that name one of our hooks
    // at its place with its hash go (a user's own hook's trust is never touched).
    async forget(options) {
      const configFile = configOf(options);
      const text = (await readTextIfPresent(configFile)) ?? '';
      let state: Record<string, unknown> = {};
      try {
        state = record(record((parseToml(text) as Record<string, unknown>)['hooks'])?.['state']) ?? {};
      } catch {
        return { file: configFile, changed: false, manualStep: `${configFile} is not valid TOML; remove the [hooks.state."${path.resolve(options.hookFile)}:…"] tables of Graphiti Memory's hooks by hand` };
      }
      const ours = (await ourHooksIn(options.hookFile, isOurs)).filter((entry) => record(state[entry.key])?.['trusted_hash'] === entry.hash);
      return edit(configFile, [], ours.map((entry) => entry.key));
    },
    async status(options): Promise<TrustStatus> {
      const configFile = configOf(options);
      const ours = await ourHooksIn(options.hookFile, isOurs);
      if (ours.length === 0) return { trusted: false, detail: 'no hooks of ours to trust' };
      let state: Record<string, unknown> = {};
      try {
        state = record(record((parseToml((await readTextIfPresent(configFile)) ?? '') as Record<string, unknown>)['hooks'])?.['state']) ?? {};
      } catch {
        return { trusted: false, detail: `${configFile} is not valid TOML: Codex runs none of them` };
      }
      const untrusted = ours.filter((entry) => record(state[entry.key])?.['trusted_hash'] !== entry.hash);
      const disabled = ours.filter((entry) => record(state[entry.key])?.['enabled'] === false);
      if (untrusted.length === 0 && disabled.length === 0) return { trusted: true, detail: `Codex trusts all ${ours.length} (${configFile})` };
      const parts = [
        untrusted.length > 0 ? `${untrusted.length} of ${ours.length} not trusted in ${configFile} (Codex skips them without a word)` : undefined,
        disabled.length > 0 ? `${disabled.length} switched off in Codex` : undefined,
      ].filter((part) => part !== undefined);
      return { trusted: false, detail: parts.join('; ') };
    },
  };
}
