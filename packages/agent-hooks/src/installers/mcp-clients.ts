// Our one entry (`graphiti-memory`, running `graphiti-harness mcp`) in each MCP client's user-level
// server list. What a client's list is (file, format, key, entry shape) is that assistant's fact, in
// its descriptor's `mcp` (claude-code.ts, codex.ts, gemini-cli.ts, copilot-vscode.ts); Cursor, an MCP
// client with no hooks of ours, is described here:
//   claude  ~/.claude.json (or $CLAUDE_CONFIG_DIR/.claude.json), `mcpServers` at the root: Claude Code's user scope
//   codex   $CODEX_HOME/config.toml (default ~/.codex), a `[mcp_servers.<name>]` table
//   gemini  ~/.gemini/settings.json, `mcpServers`
//   cursor  ~/.cursor/mcp.json, `mcpServers`
//   vscode  mcp.json in VS Code's user folder (~/.config/Code/User, ~/Library/Application Support/Code/User, %APPDATA%\Code\User), `servers`
// Each file is the user's own: the entry is merged in (comments and formatting kept: jsonc-parser's
// edits; for TOML only our table's lines change), written atomically after a backup, left untouched
// when it already says exactly this, and removed alone on uninstall. An entry of that name we did
// not write (no `--installed-by graphiti-harness`) is never replaced or removed.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import writeFileAtomic from 'write-file-atomic';
import type { McpClientDescriptor, McpClientPlace, McpServerCommand } from '../assistants/assistant-descriptor.js';
import { ASSISTANTS } from '../assistants/assistant-registry.js';
import { BACKUP_SUFFIX } from './agent-hook-files.js';
import { readTextIfPresent } from './text-file.js';

export type { McpClientPlace, McpServerCommand } from '../assistants/assistant-descriptor.js';

export const MCP_CLIENT_TARGETS = ['claude', 'codex', 'gemini', 'cursor', 'vscode'] as const;
export type McpClientTarget = (typeof MCP_CLIENT_TARGETS)[number];

/** The name our server has in every client's list. */
export const MCP_SERVER_ENTRY_NAME = 'graphiti-memory';
/** The arguments that mark an entry as ours (the server ignores them). */
export const MCP_INSTALLED_BY_ARGUMENTS = ['--installed-by', 'graphiti-harness'] as const;

/** Cursor: an MCP client only (no hooks of ours), so no assistant descriptor holds it. */
const CURSOR: McpClientDescriptor = {
  target: 'cursor',
  label: 'Cursor',
  format: 'json',
  key: 'mcpServers',
  file: ({ home }) => path.join(home, '.cursor', 'mcp.json'),
  entry: ({ command, args }) => ({ command, args: [...args] }),
};

/** Every MCP client `mcp install` offers, by target: the registered assistants' lists, and Cursor's. */
export const MCP_CLIENTS: Readonly<Record<McpClientTarget, McpClientDescriptor>> = mcpClientsByTarget([...ASSISTANTS.flatMap((assistant) => (assistant.mcp === null ? [] : [assistant.mcp])), CURSOR]);

function mcpClientsByTarget(clients: readonly McpClientDescriptor[]): Record<McpClientTarget, McpClientDescriptor> {
  const byTarget = new Map(clients.map((client) => [client.target, client]));
  const missing = MCP_CLIENT_TARGETS.filter((target) => !byTarget.has(target));
  const extra = [...byTarget.keys()].filter((target) => !(MCP_CLIENT_TARGETS as readonly string[]).includes(target));
  // A broken invariant of this package (a descriptor's mcp.target without its place in MCP_CLIENT_TARGETS, or the reverse).
  if (missing.length + extra.length > 0) throw new Error(`MCP_CLIENT_TARGETS and the MCP clients described disagree: missing ${missing.join(', ') || 'none'}, not listed ${extra.join(', ') || 'none'}`);
  return Object.fromEntries(MCP_CLIENT_TARGETS.map((target) => [target, byTarget.get(target)])) as Record<McpClientTarget, McpClientDescriptor>;
}

export function mcpClientFile(target: McpClientTarget, place: McpClientPlace): string {
  return MCP_CLIENTS[target].file(place);
}

export interface McpClientChange {
  readonly target: McpClientTarget;
  readonly file: string;
  /** False when the file already said exactly this (nothing written). */
  readonly changed: boolean;
  /** The previous file's copy, when it changed. */
  readonly backup?: string;
  /** Whether our entry is in the file afterwards. */
  readonly installed: boolean;
}

/** Writes our entry (replacing an earlier one of ours); throws, naming the file, when it cannot be merged. */
export async function installMcpServer(options: McpClientPlace & { readonly target: McpClientTarget; readonly command: McpServerCommand }): Promise<McpClientChange> {
  const facts = MCP_CLIENTS[options.target];
  const file = facts.file(options);
  const current = await readTextIfPresent(file);
  const command = { command: options.command.command, args: [...options.command.args, ...MCP_INSTALLED_BY_ARGUMENTS] };
  const next = facts.format === 'json' ? withJsonEntry(file, current ?? '', facts.key, facts.entry(command)) : withTomlEntry(file, current ?? '', command);
  return write(options.target, file, current, next, true);
}

/** Removes exactly our entry; a file without it is left untouched. */
export async function uninstallMcpServer(options: McpClientPlace & { readonly target: McpClientTarget }): Promise<McpClientChange> {
  const facts = MCP_CLIENTS[options.target];
  const file = facts.file(options);
  const current = await readTextIfPresent(file);
  if (current === undefined) return { target: options.target, file, changed: false, installed: false };
  const next = facts.format === 'json' ? withoutJsonEntry(file, current, facts.key) : withoutTomlEntry(current);
  return write(options.target, file, current, next, false);
}

/** Whether our entry is in the client's file, and what it runs (when it is). */
export interface McpServerInstallation {
  readonly file: string;
  readonly installed: boolean;
  /** The program and arguments our entry runs (without the `--installed-by` marker). */
  readonly command?: McpServerCommand;
  /** Why the file could not be read as the client's configuration (it is left alone). */
  readonly problem?: string;
}

export async function mcpServerInstalled(options: McpClientPlace & { readonly target: McpClientTarget }): Promise<McpServerInstallation> {
  const facts = MCP_CLIENTS[options.target];
  const file = facts.file(options);
  const current = await readTextIfPresent(file).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  if (current instanceof Error) return { file, installed: false, problem: current.message };
  if (current === undefined) return { file, installed: false };
  if (facts.format === 'toml') {
    const block = ourTomlBlock(current);
    if (block === undefined) return { file, installed: false };
    const command = tomlCommand(block);
    return { file, installed: true, ...(command === undefined ? {} : { command }) };
  }
  try {
    const entry = jsonServers(file, current, facts.key)[MCP_SERVER_ENTRY_NAME];
    if (!isOurs(entry) || !isObject(entry)) return { file, installed: false };
    const command = commandOf(entry['command'], entry['args']);
    return { file, installed: true, ...(command === undefined ? {} : { command }) };
  } catch (error) {
    return { file, installed: false, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** Our entry in every MCP client's file, in MCP_CLIENT_TARGETS order. */
export async function mcpServersStatus(place: McpClientPlace): Promise<(McpServerInstallation & { readonly target: McpClientTarget; readonly label: string })[]> {
  return Promise.all(MCP_CLIENT_TARGETS.map(async (target) => ({ target, label: MCP_CLIENTS[target].label, ...(await mcpServerInstalled({ ...place, target })) })));
}

/** The command of an entry, without our marker arguments; `undefined` when it is not a program and strings. */
function commandOf(command: unknown, args: unknown): McpServerCommand | undefined {
  if (typeof command !== 'string' || !Array.isArray(args) || !args.every((arg): arg is string => typeof arg === 'string')) return undefined;
  const marker = args.findIndex((value, index) => value === MCP_INSTALLED_BY_ARGUMENTS[0] && args[index + 1] === MCP_INSTALLED_BY_ARGUMENTS[1]);
  return { command, args: marker < 0 ? args : [...args.slice(0, marker), ...args.slice(marker + 2)] };
}

/** The command of our TOML table (only our lines are parsed: the rest of the file may be anything). */
function tomlCommand(block: readonly string[]): McpServerCommand | undefined {
  try {
    const table = parseToml(block.join('\n')) as { mcp_servers?: Record<string, { command?: unknown; args?: unknown }> };
    const ours = table.mcp_servers?.[MCP_SERVER_ENTRY_NAME];
    return ours === undefined ? undefined : commandOf(ours.command, ours.args);
  } catch {
    return undefined;
  }
}

function withJsonEntry(file: string, text: string, key: string, entry: Record<string, unknown>): string {
  const existing = jsonServers(file, text, key)[MCP_SERVER_ENTRY_NAME];
  if (existing !== undefined && !isOurs(existing)) throw notOurs(file);
  if (existing !== undefined && JSON.stringify(existing) === JSON.stringify(entry)) return text;
  const base = text.trim() === '' ? '{}\n' : text;
  return ensureNewline(applyEdits(base, modify(base, [key, MCP_SERVER_ENTRY_NAME], entry, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } })));
}

function withoutJsonEntry(file: string, text: string, key: string): string {
  const existing = jsonServers(file, text, key)[MCP_SERVER_ENTRY_NAME];
  if (existing === undefined || !isOurs(existing)) return text;
  return applyEdits(text, modify(text, [key, MCP_SERVER_ENTRY_NAME], undefined, { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } }));
}

/** The servers object of a JSON (with comments) config file; `{}` when there is none. */
function jsonServers(file: string, text: string, key: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const first = errors[0];
    throw new Error(`${file} is not valid JSON (${first === undefined ? 'parse error' : `${printParseErrorCode(first.error)} at offset ${first.offset}`}); fix it (or move it away) and run the command again — it was left untouched`);
  }
  if (!isObject(value)) throw new Error(`${file} is not a JSON object; fix it and run the command again — it was left untouched`);
  const servers = value[key];
  if (servers === undefined) return {};
  if (!isObject(servers)) throw new Error(`${file}: "${key}" is not an object; fix it and run the command again — it was left untouched`);
  return servers;
}

function isOurs(entry: unknown): boolean {
  if (!isObject(entry) || !Array.isArray(entry['args'])) return false;
  const args = entry['args'] as unknown[];
  return args.some((value, index) => value === MCP_INSTALLED_BY_ARGUMENTS[0] && args[index + 1] === MCP_INSTALLED_BY_ARGUMENTS[1]);
}

// TOML: our table is written and found as whole lines, so the rest of the file (comments, layout,
// other tables) is never re-serialised.
const TOML_COMMENT = '# Graphiti Memory (graphiti-harness mcp install; graphiti-harness mcp uninstall removes it)';
const TOML_NAME = String.raw`(?:"graphiti-memory"|'graphiti-memory'|graphiti-memory)`;
const TOML_OUR_HEADER = new RegExp(String.raw`^\s*\[\s*mcp_servers\s*\.\s*${TOML_NAME}\s*(?:\.[^\]]*)?\]\s*(?:#.*)?$`);
const TOML_ANY_HEADER = /^\s*\[/;

function withTomlEntry(file: string, text: string, command: McpServerCommand): string {
  const block = [TOML_COMMENT, `[mcp_servers.${MCP_SERVER_ENTRY_NAME}]`, `command = ${tomlString(command.command)}`, `args = [${command.args.map(tomlString).join(', ')}]`];
  const ours = ourTomlBlock(text);
  const rest = withoutTomlEntry(text);
  // A server of that name defined some other way (inline, a dotted key, someone else's table).
  if (new RegExp(String.raw`(?:^|[\s.{,])${TOML_NAME}\s*(?:=|\.)`, 'm').test(rest) || rest.split(/\r?\n/).some((line) => TOML_OUR_HEADER.test(line))) throw notOurs(file);
  if (ours !== undefined && ours.join('\n') === block.join('\n')) return text;
  const trimmed = rest.replace(/\s+$/, '');
  return `${trimmed === '' ? '' : `${trimmed}\n\n`}${block.join('\n')}\n`;
}

function withoutTomlEntry(text: string): string {
  const lines = text.split(/\r?\n/);
  const range = ourTomlRange(lines);
  if (range === undefined) return text;
  const [start, end] = range;
  const kept = [...lines.slice(0, start), ...lines.slice(end)];
  return kept.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** Our block's lines (comment, header, keys), when the file holds our table. */
function ourTomlBlock(text: string): string[] | undefined {
  const lines = text.split(/\r?\n/);
  const range = ourTomlRange(lines);
  return range === undefined ? undefined : lines.slice(range[0], range[1]).filter((line) => line.trim() !== '');
}

/** [first, end) of our table (with its comment line and subtables), only when it carries our marker. */
function ourTomlRange(lines: readonly string[]): [number, number] | undefined {
  const header = lines.findIndex((line) => TOML_OUR_HEADER.test(line));
  if (header === -1) return undefined;
  let end = header + 1;
  while (end < lines.length && !(TOML_ANY_HEADER.test(lines[end] ?? '') && !TOML_OUR_HEADER.test(lines[end] ?? ''))) end += 1;
  // Our own comment line goes with it; a blank line before the next table stays.
  const start = header > 0 && lines[header - 1] === TOML_COMMENT ? header - 1 : header;
  const body = lines.slice(header, end).join('\n');
  if (!body.includes(`${tomlString(MCP_INSTALLED_BY_ARGUMENTS[0])}, ${tomlString(MCP_INSTALLED_BY_ARGUMENTS[1])}`)) return undefined;
  while (end > header + 1 && (lines[end - 1] ?? '').trim() === '') end -= 1;
  return [start, end];
}

/** A TOML basic string: JSON's escapes are TOML's. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

function notOurs(file: string): Error {
  return new Error(
    `${file} already has an MCP server named "${MCP_SERVER_ENTRY_NAME}" that graphiti-harness did not write; rename or remove it, then run the command again — the file was left untouched`,
  );
}

async function write(target: McpClientTarget, file: string, current: string | undefined, next: string, installed: boolean): Promise<McpClientChange> {
  if (current !== undefined && current === next) return { target, file, changed: false, installed };
  if (current === undefined && !installed) return { target, file, changed: false, installed: false };
  await fs.mkdir(path.dirname(file), { recursive: true });
  let backup: string | undefined;
  if (current !== undefined) {
    backup = `${file}${BACKUP_SUFFIX}`;
    await fs.copyFile(file, backup);
  }
  // The file's own mode is kept (~/.claude.json holds the user's account: 0600).
  const mode = await fs.stat(file).then((stat) => stat.mode & 0o777, () => 0o600);
  await writeFileAtomic(file, next, { mode });
  return { target, file, changed: true, installed, ...(backup === undefined ? {} : { backup }) };
}

function ensureNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
