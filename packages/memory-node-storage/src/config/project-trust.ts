// The user's trust in project config files, as direnv's `allow`: a file is trusted by its path and
// the sha256 of the content the user saw, so editing it (a pull, a checkout) makes the trust lapse.
// Kept in the state folder's `trusted-project-files.json`; a file that cannot be read trusts nothing.
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { z } from 'zod';
import { sharedStateFiles } from '../state/state-layout.js';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../stores/private-folder.js';
import { configDigest } from './config-file.js';

/** Trusted file path → sha256 (hex) of its content when it was trusted. */
export type TrustedProjectFiles = Readonly<Record<string, string>>;

const trustFileSchema = z.object({ version: z.literal(1), files: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)) });

export async function readTrustedProjectFiles(stateDirectory: string): Promise<TrustedProjectFiles> {
  try {
    return parseTrust(await fs.readFile(sharedStateFiles(stateDirectory).trustedProjectFiles, 'utf8'));
  } catch {
    return {};
  }
}

export function readTrustedProjectFilesSync(stateDirectory: string): TrustedProjectFiles {
  try {
    return parseTrust(readFileSync(sharedStateFiles(stateDirectory).trustedProjectFiles, 'utf8'));
  } catch {
    return {};
  }
}

function parseTrust(text: string): TrustedProjectFiles {
  const parsed = trustFileSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data.files : {};
}

/** Trusts `file`'s current content; returns the digest trusted. Throws naming the file when it cannot be read. */
export async function trustProjectFile(stateDirectory: string, file: string): Promise<string> {
  const resolved = path.resolve(file);
  let text: string;
  try {
    text = await fs.readFile(resolved, 'utf8');
  } catch (error) {
    throw new Error(`cannot trust ${resolved}: it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); check the path`);
  }
  const digest = configDigest(text);
  await writeTrust(stateDirectory, { ...(await readTrustedProjectFiles(stateDirectory)), [resolved]: digest });
  return digest;
}

/** Withdraws trust from `file`; returns whether it was trusted. */
export async function untrustProjectFile(stateDirectory: string, file: string): Promise<boolean> {
  const resolved = path.resolve(file);
  const { [resolved]: was, ...rest } = await readTrustedProjectFiles(stateDirectory);
  if (was === undefined) return false;
  await writeTrust(stateDirectory, rest);
  return true;
}

async function writeTrust(stateDirectory: string, files: TrustedProjectFiles): Promise<void> {
  const target = sharedStateFiles(stateDirectory).trustedProjectFiles;
  await makePrivateFolder(path.dirname(target));
  await writeFileAtomic(target, `${JSON.stringify({ version: 1, files }, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
}
