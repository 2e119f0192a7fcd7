// The user scope's key: one per person, kept in the user config so every tool on the machine (the
// extension, the harness, agent hooks) writes the user scope to the same group.
import { randomUUID } from 'node:crypto';
import { readConfigFile, updateConfigFile } from './config-file.js';
import { userConfigPath, type Environment } from './config-paths.js';

const USER_KEY_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** The stored user key, or `undefined` when none was set yet (or the config cannot be read). */
export async function readUserKey(env: Environment = process.env): Promise<string | undefined> {
  const read = await readConfigFile(userConfigPath(env));
  return read.ok ? read.values.userKey : undefined;
}

/**
 * The user key; when there is none yet, `adopt` (a key this host used before, so its memory stays
 * reachable) or a new random one is stored first.
 */
export async function ensureUserKey(env: Environment = process.env, adopt?: string): Promise<string> {
  const existing = await readUserKey(env);
  if (existing !== undefined) return existing;
  const key = adopt !== undefined && USER_KEY_PATTERN.test(adopt) ? adopt : randomUUID();
  await updateConfigFile(userConfigPath(env), { userKey: key });
  return key;
}

/** Sets the user key (to share one user scope across machines); returns a problem text when the key is not valid. */
export async function setUserKey(key: string, env: Environment = process.env): Promise<string | undefined> {
  const trimmed = key.trim();
  if (!USER_KEY_PATTERN.test(trimmed)) {
    return `the user key must be 8 to 128 letters, digits, _ or - (got ${trimmed.length} characters); copy it from \`graphiti-harness user-key show\` on the other machine`;
  }
  await updateConfigFile(userConfigPath(env), { userKey: trimmed });
  return undefined;
}
