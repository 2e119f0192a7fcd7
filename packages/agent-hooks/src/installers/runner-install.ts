// The hook runner the agents' hook files run, copied out of whatever installed it (the global
// `graphiti-harness` package, a checkout, the VSIX) into the user's state folder, one folder per
// version and build: `<state folder>/runner/<version>+<build>/hook-runner.cjs` beside its cores and
// a `runner.json` naming both. Moving or deleting the tool that installed it never breaks a prompt.
// A folder is written whole under a temporary name and renamed into place, so a hook file never
// points at half a runner; an upgrade adds a folder beside the old one, the hook files then switch,
// and a session that already started the old runner finishes on the old one.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { runnerBuild } from '../hook/runner-build.js';
import { HOOK_RUNNER_FILE_NAME } from '../runner-files.js';

/** The folder of runner copies inside the state folder. */
export const RUNNERS_FOLDER_NAME = 'runner';
/** Written last into each copy: what it is. */
export const RUNNER_MANIFEST_FILE_NAME = 'runner.json';

export interface RunnerManifest {
  /** The version of the tool that installed it (the CLI's, the extension's). */
  readonly version: string;
  /** The runner's build (the hash that names its cores). */
  readonly build: string;
}

export interface InstalledRunner extends RunnerManifest {
  /** The copy's `hook-runner.cjs`: what hook files run. */
  readonly entry: string;
  readonly folder: string;
  /** False when this very copy was already in place (nothing written). */
  readonly copied: boolean;
}

/** What a hook file's runner is: its path, the version its copy records, and whether it can run. */
export interface RunnerStatus {
  readonly path: string;
  /** `runner.json`'s version; `null` for a runner that is no copy of ours (a checkout's dist, `--runner`). */
  readonly version: string | null;
  /** The entry and the core it names are both there. */
  readonly present: boolean;
}

export function runnersDirectory(stateDirectory: string): string {
  return path.join(stateDirectory, RUNNERS_FOLDER_NAME);
}

/**
 * Copies the built runner `sourceEntry` (with the cores it names) to
 * `<state folder>/runner/<version>+<build>/`; a complete copy already there is kept as it is.
 * Throws, naming the file, when the source is not a built runner.
 */
export async function installRunner(options: { readonly sourceEntry: string; readonly version: string; readonly stateDirectory: string }): Promise<InstalledRunner> {
  const { sourceEntry, version } = options;
  if (!/^[0-9A-Za-z][0-9A-Za-z.-]*$/.test(version)) throw new Error(`installRunner: ${JSON.stringify(version)} is not a version a folder can be named by`);
  const build = runnerBuild(sourceEntry);
  if (build === undefined) {
    throw new Error(`the hook runner ${sourceEntry} is missing, or the hook-runner-core-<build>.cjs it loads is not beside it; reinstall the tool (or build @graphiti-memory/agent-hooks) and run the command again`);
  }
  const sourceFolder = path.dirname(sourceEntry);
  const names = [HOOK_RUNNER_FILE_NAME, `hook-runner-core-${build}.cjs`];
  // The lean prompt core is optional: without it a prompt loads the full core.
  const prompt = `hook-runner-prompt-${build}.cjs`;
  if (await exists(path.join(sourceFolder, prompt))) names.push(prompt);

  const runners = runnersDirectory(options.stateDirectory);
  const folder = path.join(runners, `${version}+${build}`);
  const entry = path.join(folder, HOOK_RUNNER_FILE_NAME);
  if (await isCompleteCopy(folder, sourceFolder, names, { version, build })) return { entry, folder, version, build, copied: false };

  await fs.mkdir(runners, { recursive: true, mode: 0o700 });
  const partial = await fs.mkdtemp(path.join(runners, `.partial-${version}+${build}-`));
  try {
    for (const name of names) await fs.copyFile(path.join(sourceFolder, name), path.join(partial, name));
    await fs.chmod(path.join(partial, HOOK_RUNNER_FILE_NAME), 0o755);
    await fs.writeFile(path.join(partial, RUNNER_MANIFEST_FILE_NAME), `${JSON.stringify({ version, build } satisfies RunnerManifest, null, 2)}\n`);
    // A damaged copy of this build (no manifest, a file missing or cut short) makes way first.
    if (await exists(folder)) await fs.rm(folder, { recursive: true, force: true });
    try {
      await fs.rename(partial, folder);
    } catch (error) {
      // Another install placed the same copy meanwhile: theirs is as good as ours.
      if (!(await isCompleteCopy(folder, sourceFolder, names, { version, build }))) throw error;
    }
  } finally {
    await fs.rm(partial, { recursive: true, force: true });
  }
  return { entry, folder, version, build, copied: true };
}

/** The runner a hook file runs, as `agentHooksStatus` reports it. */
export async function runnerStatus(entry: string): Promise<RunnerStatus> {
  const manifest = await readManifest(path.dirname(entry));
  return { path: entry, version: manifest?.version ?? null, present: runnerBuild(entry) !== undefined };
}

/**
 * Removes the runner copies under `stateDirectory` whose entry is not in `inUse` (what hook files
 * still run) and not in `keep`; resolves to the folders removed. A removal that fails is left for
 * the next one.
 */
export async function pruneRunners(options: { readonly stateDirectory: string; readonly inUse: readonly string[]; readonly keep?: readonly string[] }): Promise<string[]> {
  const runners = runnersDirectory(options.stateDirectory);
  const used = new Set([...options.inUse, ...(options.keep ?? [])].map((entry) => path.resolve(path.dirname(entry))));
  let names: string[];
  try {
    names = await fs.readdir(runners);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    // `.partial-…`: an install under way (or one that crashed, removed by the next install of it).
    if (name.startsWith('.')) continue;
    const folder = path.join(runners, name);
    if (used.has(path.resolve(folder)) || (await readManifest(folder)) === undefined) continue;
    try {
      await fs.rm(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // Busy (Windows) or not ours to remove: tried again next time.
    }
  }
  return removed;
}

/** The state folder a runner copy lies in (`<state>/runner/<version>+<build>/hook-runner.cjs`); `undefined` for any other path. */
export function stateFolderOfCopy(entry: string): string | undefined {
  const runners = path.dirname(path.dirname(entry));
  return path.basename(entry) === HOOK_RUNNER_FILE_NAME && path.basename(runners) === RUNNERS_FOLDER_NAME ? path.dirname(runners) : undefined;
}

async function isCompleteCopy(folder: string, sourceFolder: string, names: readonly string[], wanted: RunnerManifest): Promise<boolean> {
  const manifest = await readManifest(folder);
  if (manifest?.version !== wanted.version || manifest.build !== wanted.build) return false;
  try {
    for (const name of names) {
      const [copy, source] = await Promise.all([fs.stat(path.join(folder, name)), fs.stat(path.join(sourceFolder, name))]);
      if (copy.size !== source.size) return false;
    }
    return true;
  } catch {
    return false;
  }
}

async function readManifest(folder: string): Promise<RunnerManifest | undefined> {
  try {
    const parsed: unknown = JSON.parse(await fs.readFile(path.join(folder, RUNNER_MANIFEST_FILE_NAME), 'utf8'));
    const { version, build } = (parsed ?? {}) as Record<string, unknown>;
    return typeof version === 'string' && typeof build === 'string' ? { version, build } : undefined;
  } catch {
    return undefined;
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
