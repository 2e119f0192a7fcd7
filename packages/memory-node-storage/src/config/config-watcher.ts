// Tells a long-lived host (the extension) when a config file changed. Files are replaced by atomic
// renames and may not exist yet (nor their folder), so each file's nearest existing folder is
// watched, re-armed as folders appear, and a change is reported only when a file's size, time or
// presence really changed. `fs.watch` on folders is enough here: two files, no globs.
import fs from 'node:fs';
import path from 'node:path';

export interface ConfigFilesWatch {
  dispose(): void;
}

const SETTLE_MS = 50;

/** Calls `listener` (debounced) whenever one of `files` is created, changed or removed. Never throws. */
export function watchConfigFiles(files: readonly string[], listener: () => void): ConfigFilesWatch {
  const watchers = new Map<string, fs.FSWatcher>();
  let signatures = files.map(signatureOf);
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;

  const check = (): void => {
    timer = undefined;
    if (disposed) return;
    arm();
    const next = files.map(signatureOf);
    const changed = next.some((signature, index) => signature !== signatures[index]);
    signatures = next;
    if (!changed) return;
    try {
      listener();
    } catch {
      // A failing listener must not stop the watch.
    }
  };
  const schedule = (): void => {
    if (disposed || timer !== undefined) return;
    timer = setTimeout(check, SETTLE_MS);
    timer.unref();
  };
  const arm = (): void => {
    const wanted = new Set(files.map((file) => nearestExistingFolder(path.dirname(file))).filter((folder): folder is string => folder !== undefined));
    for (const [folder, watcher] of watchers) {
      if (!wanted.has(folder)) {
        watcher.close();
        watchers.delete(folder);
      }
    }
    for (const folder of wanted) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = fs.watch(folder, { persistent: false }, schedule);
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(folder);
        });
        watchers.set(folder, watcher);
      } catch {
        // Unwatchable (permissions, removed meanwhile): the next event elsewhere re-arms.
      }
    }
  };
  arm();
  return {
    dispose() {
      disposed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

function signatureOf(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  } catch {
    return 'missing';
  }
}

function nearestExistingFolder(folder: string): string | undefined {
  let current = path.resolve(folder);
  for (;;) {
    try {
      if (fs.statSync(current).isDirectory()) return current;
    } catch {
      // Not there (yet): its parent is watched instead.
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}
