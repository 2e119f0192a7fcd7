// The API key never goes into a config or hooks file: it comes from `GRAPHITI_API_KEY`, or from a
// key file in the user config folder that only its owner can read (mode 0600).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../stores/private-folder.js';
import { apiKeyFilePath, type Environment } from './config-paths.js';

export const API_KEY_VARIABLE = 'GRAPHITI_API_KEY';

export type ApiKeyRead =
  | { readonly ok: true; readonly key: string | undefined; readonly source: 'env' | 'file' | 'none' }
  | { readonly ok: false; readonly problem: string };

/** The key from the environment, else from the key file; a key file others can read is refused. */
export async function readApiKey(env: Environment = process.env): Promise<ApiKeyRead> {
  const fromEnvironment = env[API_KEY_VARIABLE]?.trim();
  if (fromEnvironment !== undefined && fromEnvironment !== '') return { ok: true, key: fromEnvironment, source: 'env' };
  const filePath = apiKeyFilePath(env);
  let stat;
  try {
    stat = await fs.stat(filePath);
  } catch {
    return { ok: true, key: undefined, source: 'none' };
  }
  if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
    return {
      ok: false,
      problem: `${filePath} can be read by other users (mode ${(stat.mode & 0o777).toString(8)}); run \`chmod 600 ${filePath}\``,
    };
  }
  const key = (await fs.readFile(filePath, 'utf8')).trim();
  return { ok: true, key: key === '' ? undefined : key, source: key === '' ? 'none' : 'file' };
}

/** Writes the key file with mode 0600 (atomically); returns its path. */
export async function writeApiKeyFile(key: string, env: Environment = process.env): Promise<string> {
  const trimmed = key.trim();
  if (trimmed === '' || /[\r\n]/.test(trimmed)) throw new Error('the API key is empty or contains a line break; pass it exactly as issued');
  const filePath = apiKeyFilePath(env);
  await makePrivateFolder(path.dirname(filePath));
  await writeFileAtomic(filePath, `${trimmed}\n`, { mode: PRIVATE_FILE_MODE });
  await fs.chmod(filePath, PRIVATE_FILE_MODE);
  return filePath;
}
