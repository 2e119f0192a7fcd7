// Loads the runner's core (hook-runner-core-<build>.cjs) with V8's code cache: compiling 1.7 MB of
// bundle is a good part of a cold hook's start, and node 20 has no compile cache of its own for
// it. The cache sits beside the core (`.<build>.<v8>.cache`: per build and per V8, since VS Code's
// Electron and node may both run the runner); a missing or rejected one is written after the event,
// when the functions it ran are compiled too. Node built-ins only (the runner entry imports this).
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

export interface LoadedCore<T> {
  readonly exports: T;
  /** Writes the code cache when it was missing or rejected; never throws. */
  saveCache(): void;
}

export function loadCoreWithCache<T>(file: string, build: string): LoadedCore<T> {
  const folder = path.dirname(file);
  const cacheName = `hook-runner-core-${build}.${process.versions.v8.replace(/[^\w.-]/g, '_')}.cache`;
  const cacheFile = path.join(folder, cacheName);
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // First run of this build on this runtime.
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, folder);
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  return {
    exports: module.exports,
    saveCache: () => {
      if (!stale) return;
      try {
        const partial = `${cacheFile}.${process.pid}.partial`;
        writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
        renameSync(partial, cacheFile);
        // Caches of other builds or runtimes are of no use any more.
        for (const name of readdirSync(folder)) if (/^hook-runner-core-.+\.cache$/.test(name) && name !== cacheName) rmSync(path.join(folder, name), { force: true });
      } catch {
        // A read-only folder: every cold start compiles, as without a cache.
      }
    },
  };
}
