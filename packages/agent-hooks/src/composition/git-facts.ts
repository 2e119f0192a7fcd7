// Git facts of the workspace folder. A repository is not ours: its `.git/config` can name commands
// git runs (`core.fsmonitor`, hooks, a pager), so an extracted archive could run code on the first
// prompt. The remote (which names the workspace group) is read from the config file as text, with
// no process at all; git itself runs only for git metadata (`includeGitMetadata`: branch, commit,
// dirty), and then with fsmonitor, hooks, optional locks and the pager off, under a timeout.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readSafeTextFile } from '@graphiti-memory/memory-node-storage';

export interface GitFacts {
  /** The `origin` remote (or the first remote), as the repository's config names it. */
  readonly remote?: string;
  readonly branch?: string;
  readonly commit?: string;
  readonly dirty?: boolean;
}

export interface GitFactsOptions {
  /** Branch, commit and dirty flag too (`includeGitMetadata`): the only reason git runs. Default false. */
  readonly metadata?: boolean;
  readonly timeoutMs?: number;
}

export const GIT_TIMEOUT_MS = 2_000;

/**
 * Arguments that keep a repository's own configuration from running anything: no fsmonitor daemon
 * or hook, no pager, and no untracked cache written back.
 */
export const SAFE_GIT_ARGUMENTS: readonly string[] = [
  '--no-pager',
  '-c', 'core.fsmonitor=false',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.untrackedCache=false',
];

function git(folder: string, args: readonly string[], timeoutMs: number): Promise<string | undefined> {
  // Loaded where git runs, not at the top: node:child_process costs a cold hook about 2 ms to load.
  const { execFile } = process.getBuiltinModule('node:child_process');
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', PAGER: 'cat' };
  return new Promise((resolve) => {
    execFile(
      'git',
      [...SAFE_GIT_ARGUMENTS, '-C', folder, ...args],
      { timeout: timeoutMs, killSignal: 'SIGKILL', windowsHide: true, maxBuffer: 1024 * 1024, env },
      (error, stdout) => resolve(error === null ? stdout.trim() : undefined),
    );
  });
}

/** Where the repository holding `folder` keeps its files; `undefined` outside a repository. */
export interface GitRepository {
  readonly workTree: string;
  /** Holds `config` (a worktree's `.git` file leads to it through `gitdir:` and `commondir`). */
  readonly commonDir: string;
}

const SMALL_FILE_BYTES = 64 * 1024;

export async function findGitRepository(folder: string): Promise<GitRepository | undefined> {
  let current = path.resolve(folder);
  for (;;) {
    const dotGit = path.join(current, '.git');
    const stat = await fs.lstat(dotGit).catch(() => undefined);
    if (stat?.isDirectory() === true) return { workTree: current, commonDir: dotGit };
    if (stat?.isFile() === true) {
      // A worktree or submodule: `gitdir: <path>`, and in that folder `commondir` (relative to it).
      const pointer = await readSafeTextFile(dotGit, { maxBytes: SMALL_FILE_BYTES }).catch(() => '');
      const gitDir = /^gitdir:\s*(.+?)\s*$/m.exec(pointer)?.[1];
      if (gitDir === undefined) return undefined;
      const absoluteGitDir = path.resolve(current, gitDir);
      const common = (await readSafeTextFile(path.join(absoluteGitDir, 'commondir'), { maxBytes: SMALL_FILE_BYTES }).catch(() => '')).trim();
      return { workTree: current, commonDir: common === '' ? absoluteGitDir : path.resolve(absoluteGitDir, common) };
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** `origin`'s url in git config text, else the first remote's; `undefined` when none is named. */
export function remoteFromGitConfig(text: string): string | undefined {
  const urls = new Map<string, string>();
  let section: string | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*remote\s+"([^"]+)"\s*\]$/.exec(line);
    if (header) {
      section = header[1];
      continue;
    }
    if (line.startsWith('[')) {
      section = undefined;
      continue;
    }
    const entry = /^url\s*=\s*(.+)$/i.exec(line);
    if (section !== undefined && entry && !urls.has(section)) urls.set(section, unquote(entry[1] ?? ''));
  }
  const remote = urls.get('origin') ?? urls.values().next().value;
  return remote === '' ? undefined : remote;
}

// A quoted value is taken without its quotes. The extension reads remotes through this function too.
function unquote(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1) : trimmed;
}

/** The remote of `repository`, read from its config file (bounded, no link out of the repository). */
async function readRemote(repository: GitRepository): Promise<string | undefined> {
  const inside = repository.commonDir === path.join(repository.workTree, '.git');
  try {
    const text = await readSafeTextFile(path.join(repository.commonDir, 'config'), inside ? { root: repository.workTree } : {});
    return remoteFromGitConfig(text);
  } catch {
    return undefined;
  }
}

/** The remote (always, from the config file) and, with `metadata`, branch, commit and dirty flag (from git). */
export async function readGitFacts(folder: string, options: GitFactsOptions = {}): Promise<GitFacts> {
  const repository = await findGitRepository(folder);
  if (repository === undefined) return {};
  const remote = await readRemote(repository);
  const remoteFact = remote === undefined ? {} : { remote };
  if (options.metadata !== true) return remoteFact;
  const timeoutMs = options.timeoutMs ?? GIT_TIMEOUT_MS;
  const [branch, commit, status] = await Promise.all([
    git(folder, ['rev-parse', '--abbrev-ref', 'HEAD'], timeoutMs),
    git(folder, ['rev-parse', '--verify', '--quiet', 'HEAD'], timeoutMs),
    git(folder, ['status', '--porcelain', '--untracked-files=no', '--ignore-submodules'], timeoutMs),
  ]);
  return {
    ...remoteFact,
    ...(branch !== undefined && branch !== '' && branch !== 'HEAD' ? { branch } : {}),
    ...(commit !== undefined && /^[0-9a-f]{40,64}$/.test(commit) ? { commit } : {}),
    ...(status !== undefined ? { dirty: status !== '' } : {}),
  };
}
