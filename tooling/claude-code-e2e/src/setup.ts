// Installs the Claude Code CLI once per machine, at a pinned version, into a cache folder outside the
// work tree (as apps/vscode-extension/e2e/setup.mjs does for code-server). 2.1.112 is the last 2.1.x
// that ships the CLI as one JavaScript bundle (`cli.js`) run by the project's own Node; later ones
// ship a native binary per platform, installed by a postinstall script that wants Node 22.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const CLAUDE_CODE_VERSION = '2.1.112';
const PACKAGE = '@anthropic-ai/claude-code';

export class SetupError extends Error {
  override readonly name = 'SetupError';
}

export function cacheDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  return (
    environment.GRAPHITI_E2E_CACHE ??
    path.join(environment.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'graphiti-memory-e2e')
  );
}

/**
 * The environment for npm without what a package manager exported for the script that runs us
 * (`pnpm test:claude-code` sets `npm_config_*` values npm would read as its own configuration).
 */
function installEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && !name.startsWith('PNPM_') && name !== 'INIT_CWD'),
  );
}

/** An npm package with a command-line entry, pinned, to install once per machine. */
export interface PinnedCli {
  /** The npm package (`@anthropic-ai/claude-code`). */
  readonly packageName: string;
  readonly version: string;
  /** The folder under the cache (`claude-code-2.1.112`). */
  readonly folder: string;
  /** The entry, relative to the installed package's root (`cli.js`). */
  readonly entry: string;
}

/** The installed CLI's entry (absolute), installed first with `npm install --prefix` when missing. */
export function ensurePinnedCli(cli: PinnedCli, log: (message: string) => void): string {
  const directory = path.join(cacheDirectory(), cli.folder);
  const packageRoot = path.join(directory, 'node_modules', ...cli.packageName.split('/'));
  const entry = path.join(packageRoot, cli.entry);
  if (fs.existsSync(entry) && installedVersion(packageRoot) === cli.version) return entry;

  fs.mkdirSync(directory, { recursive: true });
  const spec = `${cli.packageName}@${cli.version}`;
  log(`installing ${spec} into ${directory} (once per machine)`);
  const result = spawnSync(
    'npm',
    ['install', '--prefix', directory, '--no-audit', '--no-fund', '--no-save', '--no-package-lock', spec],
    { encoding: 'utf8', env: installEnvironment(), timeout: 600_000 },
  );
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new SetupError(
      `'npm install --prefix ${directory} ${spec}' failed (exit ${result.status ?? result.signal ?? result.error?.message}).\n${output}\n` +
        'Check that the npm registry is reachable, or point GRAPHITI_E2E_CACHE at a folder that already holds the install.',
    );
  }
  if (!fs.existsSync(entry)) {
    throw new SetupError(`${spec} installed into ${directory}, but ${entry} is missing: the package layout changed; pin another version.`);
  }
  return entry;
}

/** The CLI's entry script (`cli.js`), installed first when missing. */
export function ensureClaudeCode(log: (message: string) => void): string {
  return ensurePinnedCli({ packageName: PACKAGE, version: CLAUDE_CODE_VERSION, folder: `claude-code-${CLAUDE_CODE_VERSION}`, entry: 'cli.js' }, log);
}

function installedVersion(packageRoot: string): string | undefined {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}
