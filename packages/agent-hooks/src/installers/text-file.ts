// The user's config files the installers merge into: read whole, a missing file is an expected miss.
import { promises as fs } from 'node:fs';

/** The file's text; `undefined` when it does not exist. Any other failure (permissions, a folder) throws. */
export async function readTextIfPresent(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
