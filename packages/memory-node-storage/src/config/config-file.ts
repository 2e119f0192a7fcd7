// The config file format, shared by the user-level `config.json` and the project's
// `.graphiti-memory.json`. It holds every memory setting a tool honours, under the same names and
// with the same meaning as VS Code's `graphitiMemory.*` settings (the one exception: the file's
// `server` is VS Code's `serverKind`), plus what only files hold (state folder, user key, consent,
// brief budget). Bounds are checked by memory-core's own settings schema, so a
// bad value fails here exactly as it does in VS Code; unknown keys are errors naming the nearest key.
import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  CAPTURE_GRANULARITIES,
  DIGEST_WRITERS,
  FILTER_KINDS,
  GROUP_ID_STRATEGIES,
  INGEST_SCOPE_SETTINGS,
  MEMORY_SCOPES,
  parseMemorySettings,
  RECALL_SCOPE_SETTINGS,
  STALE_SETTINGS,
  SERVER_KIND_SETTINGS,
  TRANSCRIPT_FILTER_PRESETS,
  type IngestScopeSetting,
} from '@graphiti-memory/memory-core';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../stores/private-folder.js';
import { FileReadRefusal, readSafeTextFile, readSafeTextFileSync, type SafeFileReadOptions } from '../files/safe-file-read.js';
import { unknownKeys, type KeyTree } from './unknown-keys.js';

export const SERVER_KINDS = SERVER_KIND_SETTINGS;
export type ServerKind = (typeof SERVER_KINDS)[number];
/**
 * The scopes a list-form `scopes` may name (what `hooks install --scopes` writes). `user` and `team`
 * are reached by promotion only: captured turns never go there.
 */
export const CONFIG_SCOPES = ['session', 'workspace', 'user', 'team'] as const;
export type ConfigScope = (typeof CONFIG_SCOPES)[number];

/** Consent given by `hooks install` (or the extension's Connect command): exactly this endpoint. */
export interface HookConsent {
  readonly endpoint: string;
  readonly grantedAt: string;
  /** Who asked: `graphiti-harness`, `vscode`. */
  readonly by: string;
}

const consentSchema = z.strictObject({ endpoint: z.string().min(1), grantedAt: z.string(), by: z.string() });

// Types only: bounds come from memory-core's schema (checkConfigValues), so they are never stated twice.
const configFileSchema = z.strictObject({
  enabled: z.boolean().optional(),
  endpoint: z.string().optional(),
  server: z.enum(SERVER_KINDS).optional(),
  timeoutMs: z.number().optional(),
  maxBatchSize: z.number().optional(),
  maxQueueSize: z.number().optional(),
  maxMessageChars: z.number().optional(),
  maxAttempts: z.number().optional(),
  maxAgeHours: z.number().optional(),
  // Where captured turns go, as `graphitiMemory.scopes`. The list form (`["session","workspace"]`,
  // what `hooks install --scopes` writes) means the same: its session/workspace entries.
  scopes: z.union([z.enum(INGEST_SCOPE_SETTINGS), z.array(z.enum(CONFIG_SCOPES)).min(1)]).optional(),
  groupIdStrategy: z.enum(GROUP_ID_STRATEGIES).optional(),
  includeGitMetadata: z.boolean().optional(),
  includeSystemMessages: z.boolean().optional(),
  autoPromote: z.strictObject({ enabled: z.boolean().optional(), review: z.boolean().optional() }).optional(),
  recall: z
    .strictObject({
      enabled: z.boolean().optional(),
      timeoutMs: z.number().optional(),
      maxFacts: z.number().optional(),
      // A named selection, or the scopes themselves (`["session","workspace","team"]`).
      scopes: z.union([z.enum(RECALL_SCOPE_SETTINGS), z.array(z.enum(MEMORY_SCOPES)).min(1)]).optional(),
      stale: z.enum(STALE_SETTINGS).optional(),
    })
    .optional(),
  // The opt-in team scope: `consent` is the user's agreement that anyone using this server with the
  // repository reads what they promote there; `displayName` is stored with it.
  team: z.strictObject({ consent: z.boolean().optional(), displayName: z.string().optional() }).optional(),
  capture: z
    .strictObject({
      vscodeChat: z.boolean().optional(),
      claudeCode: z.boolean().optional(),
      backfillTurns: z.number().optional(),
      granularity: z.enum(CAPTURE_GRANULARITIES).optional(),
      idleMinutes: z.number().optional(),
      digestTurns: z.number().optional(),
      // Who writes digests: `chatModel` is VS Code's chat model (vscode.lm); other tools send the filtered digest.
      digestWriter: z.enum(DIGEST_WRITERS).optional(),
      digestModel: z.string().optional(),
    })
    .optional(),
  // A preset name, or per-kind modes over one (`{ "preset": "compact", "assistant": "summary" }`).
  filter: z
    .union([z.string(), z.strictObject(Object.fromEntries(['preset', ...FILTER_KINDS].map((key) => [key, z.string().optional()])))], {
      error: `must be a preset (${Object.keys(TRANSCRIPT_FILTER_PRESETS).join(', ')}) or an object of per-kind modes such as { "preset": "compact", "assistant": "summary" }`,
    })
    .optional(),
  brief: z.strictObject({ budget: z.number().int().min(100).max(20_000).optional() }).optional(),
  // The structured mirror (seed 001): on only from the user's own sources; a project file may only turn it off.
  mirror: z.strictObject({ enabled: z.boolean().optional() }).optional(),
  // proposeWithModel: the VS Code chat model proposes loops for review; on only from the user's own sources.
  loops: z.strictObject({ expireDays: z.number().optional(), proposeWithModel: z.boolean().optional() }).optional(),
  stateDir: z.string().min(1).optional(),
  userKey: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'must be 8 to 128 letters, digits, _ or -').optional(),
  consent: consentSchema.optional(),
});

export type ConfigValues = z.infer<typeof configFileSchema>;

/** The keys a config file may hold, at every depth (for unknown-key errors and `config show`). */
export const CONFIG_KEY_TREE: KeyTree = keyTreeOf(configFileSchema);

function keyTreeOf(schema: z.ZodType): KeyTree {
  const tree: Record<string, KeyTree | null> = {};
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodOptional) inner = inner.unwrap() as z.ZodType;
  inner = objectOption(inner);
  if (!(inner instanceof z.ZodObject)) return tree;
  for (const [key, child] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
    let unwrapped: z.ZodType = child;
    while (unwrapped instanceof z.ZodOptional) unwrapped = unwrapped.unwrap() as z.ZodType;
    unwrapped = objectOption(unwrapped);
    tree[key] = unwrapped instanceof z.ZodObject ? keyTreeOf(unwrapped) : null;
  }
  return tree;
}

/** A union's object form (`filter`'s per-kind modes), whose keys are checked like any others; else `schema`. */
function objectOption(schema: z.ZodType): z.ZodType {
  if (!(schema instanceof z.ZodUnion)) return schema;
  return (schema.options as readonly z.ZodType[]).find((option) => option instanceof z.ZodObject) ?? schema;
}

/** Keys that must never be written into a config or hooks file. */
const SECRET_KEYS = ['apiKey', 'api_key', 'apikey', 'key', 'token', 'password'];

/** A value of a project file that was not applied, and why (the file is a repository's: never fatal). */
export interface IgnoredFileKey {
  /** Dotted key (`recall.maxFacts`), or `*` for the whole file. */
  readonly key: string;
  readonly why: string;
}

export type ConfigFileRead =
  | {
      readonly ok: true;
      readonly values: ConfigValues;
      readonly exists: boolean;
      /** sha256 (hex) of the file's content, when read from a file (what project trust compares). */
      readonly digest?: string;
      /** A project file's unknown or invalid keys, left out of `values` (see `checkProjectConfigValues`). */
      readonly ignored?: readonly IgnoredFileKey[];
    }
  | { readonly ok: false; readonly problems: readonly string[] };

/** Whose file: the user's own (a bad value is an error) or a repository's (a bad value is ignored and named). */
export type ConfigFileKind = 'user' | 'project';

/** One problem of a values object: the key it is about (`[]`: the whole object) and what is wrong. */
interface KeyProblem {
  readonly path: readonly string[];
  /** Names the key itself (`unknown key \`x\`; did you mean …`, `recall.maxFacts: must be at most 50`). */
  readonly text: string;
}

/**
 * Checks values from any source (a file, flags, env) and names every bad one after `origin`;
 * `names` renames keys in problems (`timeoutMs` → `--timeout-ms` for flags).
 */
export function checkConfigValues(raw: unknown, origin: string, names: Readonly<Record<string, string>> = {}): ConfigFileRead {
  const checked = keyProblemsOf(raw, names);
  if (!checked.ok) return { ok: false, problems: checked.problems.map((problem) => `${origin}: ${problem.text}`) };
  return { ok: true, values: checked.values, exists: true };
}

/**
 * A repository's file, checked without letting it stop memory: each unknown or invalid key is
 * left out and named in `ignored` (like a key that would widen what is sent), so a cloned
 * repository's typo never switches memory off, nor blocks a command, for whoever opens it.
 */
export function checkProjectConfigValues(raw: unknown): ConfigFileRead & { readonly ok: true } {
  if (!isPlainObject(raw)) return { ok: true, values: {}, exists: true, ignored: [{ key: '*', why: 'must be a JSON object; the whole file is ignored' }] };
  let record: Record<string, unknown> = structuredClone(raw);
  const ignored: IgnoredFileKey[] = [];
  // Each pass drops what it found wrong; a value's bounds are checked once its type is right.
  for (let pass = 0; pass < 5; pass++) {
    const checked = keyProblemsOf(record, {});
    if (checked.ok) return { ok: true, values: checked.values, exists: true, ignored };
    for (const problem of checked.problems) {
      if (problem.path.length === 0) return { ok: true, values: {}, exists: true, ignored: [...ignored, { key: '*', why: `${problem.text}; the whole file is ignored` }] };
      ignored.push({ key: problem.path.join('.'), why: problem.text });
      record = withoutKey(record, problem.path);
    }
  }
  return { ok: true, values: {}, exists: true, ignored: [...ignored, { key: '*', why: 'its values could not be checked; the whole file is ignored' }] };
}

function keyProblemsOf(raw: unknown, names: Readonly<Record<string, string>>): { readonly ok: true; readonly values: ConfigValues } | { readonly ok: false; readonly problems: readonly KeyProblem[] } {
  if (!isPlainObject(raw)) return { ok: false, problems: [{ path: [], text: 'must be a JSON object' }] };
  const record = raw;
  const secrets = Object.keys(record).filter((key) => SECRET_KEYS.includes(key));
  if (secrets.length > 0) {
    return {
      ok: false,
      problems: secrets.map((key) => ({
        path: [key],
        text: `${key} must not be in a config file; remove it and set GRAPHITI_API_KEY, or run \`graphiti-harness hooks install --endpoint URL --api-key KEY\` (it writes the key file, mode 0600, next to the config)`,
      })),
    };
  }
  const unknown = unknownKeys(record, CONFIG_KEY_TREE);
  if (unknown.length > 0) return { ok: false, problems: unknown.map(({ key, path: keyPath, hint }) => ({ path: keyPath, text: `unknown key \`${key}\`; ${hint}` })) };
  const named = (key: string): string => names[key] ?? key;
  const parsed = configFileSchema.safeParse(record);
  const problems: KeyProblem[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const keyPath = issue.path.map(String);
      problems.push({ path: keyPath, text: `${named(keyPath.join('.') || '(root)')}: ${issue.message}` });
    }
  } else {
    const memory = parseMemorySettings(memoryPartOf(parsed.data));
    if (!memory.ok) {
      for (const problem of memory.problems) {
        const [key = '', ...rest] = problem.replace(/^graphitiMemory\./, '').split(': ');
        const fileKey = key === 'serverKind' ? 'server' : key;
        problems.push({ path: fileKey.split('.'), text: `${named(fileKey)}: ${rest.join(': ')}` });
      }
    }
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  return { ok: true, values: parsed.data };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `record` without the key at `keyPath` (a nested object left empty stays, harmless). */
function withoutKey(record: Record<string, unknown>, keyPath: readonly string[]): Record<string, unknown> {
  const [head, ...rest] = keyPath;
  if (head === undefined || !Object.hasOwn(record, head)) return record;
  const { [head]: child, ...others } = record;
  if (rest.length === 0 || !isPlainObject(child)) return others;
  return { ...others, [head]: withoutKey(child, rest) };
}

/** The capture scopes a `scopes` value means: the list form by its session and workspace entries. */
export function ingestScopesOf(scopes: ConfigValues['scopes']): IngestScopeSetting | undefined {
  if (scopes === undefined || typeof scopes === 'string') return scopes;
  const session = scopes.includes('session');
  const workspace = scopes.includes('workspace');
  // `user` and `team` are reached by promotion only; a list naming neither session nor workspace captures to both, as before.
  return session === workspace ? 'both' : session ? 'session' : 'workspace';
}

/** The values memory-core's schema checks, in its shape (for the bounds). */
function memoryPartOf(values: ConfigValues): Record<string, unknown> {
  const { server, scopes, brief: _brief, stateDir: _stateDir, userKey: _userKey, consent: _consent, ...memory } = values;
  return {
    ...memory,
    ...(server === undefined ? {} : { serverKind: server }),
    ...(scopes === undefined ? {} : { scopes: ingestScopesOf(scopes) }),
  };
}

/**
 * Reads a config file; a missing file is an empty config. In the user's file (`kind` `user`), bad
 * JSON or values are problems; in a project file they are ignored and named (`checkProjectConfigValues`).
 * `readOptions`: the safe read's bounds (see safe-file-read.ts).
 */
export async function readConfigFile(filePath: string, kind: ConfigFileKind = 'user', readOptions: SafeFileReadOptions = {}): Promise<ConfigFileRead> {
  let text: string;
  try {
    // Bounded, regular, owned by the user, no link out of its folder (`root`): see safe-file-read.ts.
    text = await readSafeTextFile(filePath, readOptions);
  } catch (error) {
    return unreadable(filePath, error);
  }
  return parseConfigText(text, filePath, kind);
}

/** `readConfigFile`, synchronously: for hosts whose settings are read synchronously (VS Code's `SettingsSource`). */
export function readConfigFileSync(filePath: string, kind: ConfigFileKind = 'user', readOptions: SafeFileReadOptions = {}): ConfigFileRead {
  let text: string;
  try {
    text = readSafeTextFileSync(filePath, readOptions);
  } catch (error) {
    return unreadable(filePath, error);
  }
  return parseConfigText(text, filePath, kind);
}

function unreadable(filePath: string, error: unknown): ConfigFileRead {
  if (error instanceof FileReadRefusal) return { ok: false, problems: [`${filePath}: ${error.message}`] };
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { ok: true, values: {}, exists: false };
  return { ok: false, problems: [`${filePath}: cannot be read (${code ?? 'error'}); check its permissions`] };
}

function parseConfigText(text: string, filePath: string, kind: ConfigFileKind): ConfigFileRead {
  let raw: unknown;
  try {
    raw = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    // Never "delete the file": the user's file holds the user key (every stored memory's group) and consent.
    const where = jsonErrorPlace(text);
    if (kind === 'project') return { ok: true, values: {}, exists: true, digest: configDigest(text), ignored: [{ key: '*', why: `is not valid JSON (${where}); the whole file is ignored` }] };
    return { ok: false, problems: [`${filePath}: is not valid JSON (${where}); fix the file at that place (keep its other values: it holds your user key and consent)`] };
  }
  const checked = kind === 'project' ? checkProjectConfigValues(raw) : checkConfigValues(raw, filePath);
  return checked.ok ? { ...checked, digest: configDigest(text) } : checked;
}

/**
 * Where `text` stops being JSON, as `line L, column C: <what is wrong>` (1-based); never quotes
 * the text (it may hold the user key). JSON.parse names no place for every error on Node 20, so
 * jsonc-parser (strict: no comments, no trailing commas) finds the first one.
 */
export function jsonErrorPlace(text: string): string {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  const offset = Math.min(first?.offset ?? text.length, text.length);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return `line ${line}, column ${column}: ${first === undefined ? 'not valid JSON' : describeJsonError(printParseErrorCode(first.error))}`;
}

/** `CommaExpected` → `comma expected`. */
function describeJsonError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** sha256 (hex) of a config file's content. */
export function configDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Merges `patch` into the user config file (atomic write; `undefined` values remove a key) and
 * returns the values written. Refuses to overwrite a file it cannot parse.
 */
export async function updateConfigFile(filePath: string, patch: Partial<Record<keyof ConfigValues, unknown>>): Promise<ConfigValues> {
  const current = await readConfigFile(filePath);
  if (!current.ok) throw new Error(`cannot update ${filePath}: ${current.problems.join('; ')}`);
  const next: Record<string, unknown> = { ...current.values };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  const checked = checkConfigValues(next, filePath);
  if (!checked.ok) throw new Error(checked.problems.join('; '));
  await makePrivateFolder(path.dirname(filePath));
  await writeFileAtomic(filePath, `${JSON.stringify(next, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  return checked.values;
}
