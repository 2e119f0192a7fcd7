// Git facts of the workspace folder, read with `git` itself under a timeout: a slow or missing git
// only means "no git metadata", never a stuck harness.

export interface GitFacts {
  /** The `origin` remote (or the first remote), as git reports it. */
  readonly remote?: string;
  readonly branch?: string;
  readonly commit?: string;
  readonly dirty?: boolean;
}

export const GIT_TIMEOUT_MS = 2_000;

function git(folder: string, args: readonly string[], timeoutMs: number): Promise<string | undefined> {
  // Loaded where git runs, not at the top: a prompt uses the cached remote (git-remote-cache.ts), and
  // node:child_process costs a cold hook about 2 ms to load.
  const { execFile } = process.getBuiltinModule('node:child_process');
  return new Promise((resolve) => {
    execFile(
      'git',
      ['-C', folder, ...args],
      { timeout: timeoutMs, windowsHide: true, maxBuffer: 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' } },
      (error, stdout) => resolve(error === null ? stdout.trim() : undefined),
    );
  });
}

/** Reads remote, branch, commit and dirty flag; fields git cannot give are left out. */
export async function readGitFacts(folder: string, timeoutMs = GIT_TIMEOUT_MS): Promise<GitFacts> {
  const inside = await git(folder, ['rev-parse', '--is-inside-work-tree'], timeoutMs);
  if (inside !== 'true') return {};
  const [origin, remotes, branch, commit, status] = await Promise.all([
    git(folder, ['remote', 'get-url', 'origin'], timeoutMs),
    git(folder, ['remote'], timeoutMs),
    git(folder, ['rev-parse', '--abbrev-ref', 'HEAD'], timeoutMs),
    git(folder, ['rev-parse', '--verify', '--quiet', 'HEAD'], timeoutMs),
    git(folder, ['status', '--porcelain', '--untracked-files=no'], timeoutMs),
  ]);
  let remote = origin !== undefined && origin !== '' ? origin : undefined;
  const firstRemote = remotes?.split('\n')[0]?.trim();
  if (remote === undefined && firstRemote !== undefined && firstRemote !== '') {
    remote = await git(folder, ['remote', 'get-url', firstRemote], timeoutMs);
  }
  return {
    ...(remote !== undefined && remote !== '' ? { remote } : {}),
    ...(branch !== undefined && branch !== '' && branch !== 'HEAD' ? { branch } : {}),
    ...(commit !== undefined && /^[0-9a-f]{40,64}$/.test(commit) ? { commit } : {}),
    ...(status !== undefined ? { dirty: status !== '' } : {}),
  };
}
