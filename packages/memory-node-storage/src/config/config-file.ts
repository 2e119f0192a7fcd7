// The config file format, shared by the user-level `config.json` and the project's
// `.graphiti-memory.json`. Memory settings inside it (endpoint, timeouts, recall) are checked by
// memory-core's own settings schema, so a bad value fails here exactly as it does in VS Code.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseMemorySettings, RECALL_SCOPE_SETTINGS, TRANSCRIPT_FILTER_PRESETS } from '@graphiti-memory/memory-core';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';

export const SERVER_KINDS = ['auto', 'rest', 'mcp'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];
export const CONFIG_SCOPES = ['session', 'workspace', 'user'] as const;
export type ConfigScope = (typeof CONFIG_SCOPES)[number];

/** Consent given by `hooks install` (or the extension's Connect command): exactly this endpoint. */
export interface HookConsent {
  readonly endpoint: string;
  readonly grantedAt: string;
  /** Who asked: `graphiti-harness`, `vscode`. */
  readonly by: string;
}

const consentSchema = z.object({ endpoint: z.string().min(1), grantedAt: z.string(), by: z.string() });

// Keys a config file may hold; memory settings (endpoint, timeoutMs, recall, …) are validated
// again by memory-core's schema below.
const configFileSchema = z.object({
  enabled: z.boolean().optional(),
  endpoint: z.string().optional(),
  server: z.enum(SERVER_KINDS).optional(),
  scopes: z.array(z.enum(CONFIG_SCOPES)).min(1).optional(),
  timeoutMs: z.number().optional(),
  groupIdStrategy: z.string().optional(),
  recall: z
    .object({ timeoutMs: z.number().optional(), maxFacts: z.number().optional(), scopes: z.enum(RECALL_SCOPE_SETTINGS).optional() })
    .optional(),
  filter: z
    .string()
    .refine((value) => Object.hasOwn(TRANSCRIPT_FILTER_PRESETS, value), {
      message: `must be one of ${Object.keys(TRANSCRIPT_FILTER_PRESETS).join(', ')}`,
    })
    .optional(),
  brief: z.object({ budget: z.number().int().min(100).max(20_000).optional() }).optional(),
  stateDir: z.string().min(1).optional(),
  userKey: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'must be 8 to 128 letters, digits, _ or -').optional(),
  consent: consentSchema.optional(),
});

export type ConfigValues = z.infer<typeof configFileSchema>;

/** Keys that must never be written into a config or hooks file. */
const SECRET_KEYS = ['apiKey', 'api_key', 'apikey', 'key', 'token', 'password'];

export type ConfigFileRead =
  | { readonly ok: true; readonly values: ConfigValues; readonly exists: boolean }
  | { readonly ok: false; readonly problems: readonly string[] };

/** Checks values from any source (a file, flags, env) and names every bad one after `origin`. */
export function checkConfigValues(raw: unknown, origin: string): ConfigFileRead {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { ok: false, problems: [`${origin}: must be a JSON object`] };
  }
  const record = raw as Record<string, unknown>;
  const secrets = Object.keys(record).filter((key) => SECRET_KEYS.includes(key));
  if (secrets.length > 0) {
    return {
      ok: false,
      problems: [`${origin}: ${secrets.join(', ')} must not be in a config file; use GRAPHITI_API_KEY or \`graphiti-harness hooks install --api-key-file\` (a key file with mode 0600)`],
    };
  }
  const parsed = configFileSchema.safeParse(record);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${origin}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  } else {
    const memory = parseMemorySettings(memorySettingsOf(parsed.data));
    if (!memory.ok) for (const problem of memory.problems) problems.push(`${origin}: ${problem.replace(/^graphitiMemory\./, '')}`);
  }
  if (problems.length > 0 || !parsed.success) return { ok: false, problems };
  return { ok: true, values: parsed.data, exists: true };
}

/** The subset memory-core's schema knows, in its shape. */
export function memorySettingsOf(values: ConfigValues): Record<string, unknown> {
  return {
    ...(values.endpoint === undefined ? {} : { endpoint: values.endpoint }),
    ...(values.timeoutMs === undefined ? {} : { timeoutMs: values.timeoutMs }),
    ...(values.groupIdStrategy === undefined ? {} : { groupIdStrategy: values.groupIdStrategy }),
    ...(values.recall === undefined ? {} : { recall: values.recall }),
  };
}

/** Reads a config file; a missing file is an empty config, bad JSON or values are problems. */
export async function readConfigFile(filePath: string): Promise<ConfigFileRead> {
  let text: string;
  try {
    text = await fs.readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, values: {}, exists: false };
    return { ok: false, problems: [`${filePath}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); check its permissions`] };
  }
  let raw: unknown;
  try {
    raw = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    return { ok: false, problems: [`${filePath}: is not valid JSON; fix or delete the file`] };
  }
  return checkConfigValues(raw, filePath);
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
  await fs.mkdir(path.dirname(filePath), { recursive: true });
  await writeFileAtomic(filePath, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  return checked.values;
}
