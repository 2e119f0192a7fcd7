// Which build a runner entry on disk is: the id of the core beside it that it names (the build
// script writes the id into the entry as a string; the extension's build reads it the same way).
// Turbo's cache may leave an older core beside the entry, so the core's presence alone is no proof.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const CORE_FILE = /^hook-runner-core-([0-9a-f]+)\.cjs$/;

/** The build of the runner entry `entryFile`; `undefined` when it is missing or names no core beside it. */
export function runnerBuild(entryFile: string): string | undefined {
  try {
    const entry = readFileSync(entryFile, 'utf8');
    for (const name of readdirSync(path.dirname(entryFile))) {
      const build = CORE_FILE.exec(name)?.[1];
      if (build !== undefined && entry.includes(`"${build}"`)) return build;
    }
  } catch {
    // Not built, or not readable: no build to speak of.
  }
  return undefined;
}
