// Loads one of the runner's cores (hook-runner-core-<build>.cjs, or the lean prompt core
// hook-runner-prompt-<build>.cjs) with V8's code cache: compiling 1.7 MB of bundle is a good part
// of a cold hook's start, and node 20 has no compile cache of its own for it. The cache sits beside
// the core (`<core name>.<v8>.cache`: per core, build and V8, since VS Code's
// Electron and node may both run the runner); a missing or rejected one is written after the event,
// when the functions it ran are compiled too. Node built-ins only (the runner entry imports this).
// V8 trusts a code cache whose header matches: damaged bytes after it abort the process (a fatal
// error, no exception to catch), on every later run too. So the file carries its own SHA-256 ahead
// of V8's data, and is used only when that matches and only this user can have written it; anything
// else is ignored (compiled from source, as without a cache) and replaced after the event.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/**
 * What became of the cache file: `used` (V8 took it), `missing`, `damaged` (its digest does not
 * match: torn or corrupted), `unsafe` (not this user's, or writable by others), `rejected` (V8
 * refused it: another source, V8 or flags).
 */
export type CoreCacheState = 'used' | 'missing' | 'damaged' | 'unsafe' | 'rejected';

export interface LoadedCore<T> {
  readonly exports: T;
  readonly cache: CoreCacheState;
  /** Writes the code cache when it was not used; never throws. */
  saveCache(): void;
}

const DIGEST_BYTES = 32;

/** The cache file of the core `file` (`…/hook-runner-<kind>-<build>.cjs`) for this runtime. */
export function coreCacheFile(file: string): string {
  return `${file.replace(/\.cjs$/, '')}.${process.versions.v8.replace(/[^\w.-]/g, '_')}.cache`;
}

export function loadCoreWithCache<T>(file: string): LoadedCore<T> {
  const folder = path.dirname(file);
  const cacheFile = coreCacheFile(file);
  // `hook-runner-core-` or `hook-runner-prompt-`: a new cache replaces its own kind's older ones only.
  const prefix = /^(hook-runner-[a-z]+-)/.exec(path.basename(file))?.[1];
  const source = readFileSync(file, 'utf8');
  const read = readCache(cacheFile);
  const cachedData = read.kind === 'found' ? read.data : undefined;
  const script = new vm.Script(Module.wrap(source), { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  const module = { exports: {} as T };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, folder);
  const cache: CoreCacheState = read.kind === 'found' ? (script.cachedDataRejected === true ? 'rejected' : 'used') : read.kind;
  return {
    exports: module.exports,
    cache,
    saveCache: () => {
      if (cache === 'used') return;
      try {
        const data = script.createCachedData();
        const partial = `${cacheFile}.${process.pid}.partial`;
        writeFileSync(partial, Buffer.concat([createHash('sha256').update(data).digest(), data]), { mode: 0o600 });
        renameSync(partial, cacheFile);
        // Caches of other builds or runtimes of this core are of no use any more.
        const name = path.basename(cacheFile);
        for (const other of readdirSync(folder)) if (prefix !== undefined && other.startsWith(prefix) && other.endsWith('.cache') && other !== name) rmSync(path.join(folder, other), { force: true });
      } catch {
        // A read-only folder: every cold start compiles, as without a cache.
      }
    },
  };
}

type CacheRead = { readonly kind: 'found'; readonly data: Buffer } | { readonly kind: 'missing' | 'damaged' | 'unsafe' };

function readCache(cacheFile: string): CacheRead {
  let descriptor: number;
  try {
    descriptor = openSync(cacheFile, 'r');
  } catch {
    // First run of this build on this runtime.
    return { kind: 'missing' };
  }
  try {
    // Code is what the cache holds: only a file this user wrote, and no one else can change, is run.
    const stat = fstatSync(descriptor);
    const uid = process.getuid?.();
    if (!stat.isFile() || (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0))) return { kind: 'unsafe' };
    const bytes = readFileSync(descriptor);
    if (bytes.length <= DIGEST_BYTES) return { kind: 'damaged' };
    const data = bytes.subarray(DIGEST_BYTES);
    return createHash('sha256').update(data).digest().equals(bytes.subarray(0, DIGEST_BYTES)) ? { kind: 'found', data } : { kind: 'damaged' };
  } catch {
    return { kind: 'damaged' };
  } finally {
    closeSync(descriptor);
  }
}
