// Tells when a file of the shared state folder changes — written by this window, another window,
// graphiti-harness or an agent hook — so a view that shows it can re-read. Watches the file's
// folder (the file may not exist yet, and atomic writes replace it); changes are coalesced.
import { watch, type FSWatcher } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

/** Changes within this window are reported once. */
const COALESCE_MS = 100;

export interface SharedFileWatch {
  dispose(): void;
}

/**
 * Calls `onChange` after `file` changes. Resolves once watching; rejects when the folder cannot be
 * watched (the caller falls back to re-reading on refresh).
 */
export async function watchSharedFile(file: string, onChange: () => void): Promise<SharedFileWatch> {
  return watchFolder(path.dirname(file), path.basename(file), onChange);
}

/** Calls `onChange` after any file of `folder` changes (the local tier: one file per workspace). */
export async function watchSharedFolder(folder: string, onChange: () => void): Promise<SharedFileWatch> {
  return watchFolder(folder, undefined, onChange);
}

async function watchFolder(folder: string, name: string | undefined, onChange: () => void): Promise<SharedFileWatch> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(folder, { persistent: false }, (_event, changed) => {
    // Some platforms do not name the file: then any change of the folder counts.
    if (name !== undefined && changed !== null && changed !== name) return;
    timer ??= setTimeout(() => {
      timer = undefined;
      onChange();
    }, COALESCE_MS);
  });
  watcher.on('error', () => watcher.close());
  return {
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      watcher.close();
    },
  };
}
