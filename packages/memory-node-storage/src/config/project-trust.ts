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

const DIGEST = /^[0-9a-f]{64}$/;
const trustFileSchema = z.object({ version: z.literal(1), files: z.record(z.string(), z.string().regex(DIGEST)) });

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

/**
 * Trusts `file`'s current content, or with `seen` (a sha256 from `projectDigest`) the content the
 * user was shown: an edit since then is not trusted by the answer about the earlier one. Returns the
 * digest trusted. Throws naming the file when it cannot be read, or naming `seen` when it is no digest.
 */
export async function trustProjectFile(stateDirectory: string, file: string, seen?: string): Promise<string> {
  const resolved = path.resolve(file);
  if (seen !== undefined && !DIGEST.test(seen)) throw new TypeError(`cannot trust ${resolved}: ${JSON.stringify(seen)} is not a sha256 digest; pass the configuration's projectDigest`);
  const digest = seen ?? configDigest(await readToTrust(resolved));
  await writeTrust(stateDirectory, { ...(await readTrustedProjectFiles(stateDirectory)), [resolved]: digest });
  return digest;
}

async function readToTrust(resolved: string): Promise<string> {
  try {
    return await fs.readFile(resolved, 'utf8');
  } catch (error) {
    throw new Error(`cannot trust ${resolved}: it cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); check the path`);
  }
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
