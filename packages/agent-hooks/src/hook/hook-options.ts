// The hook's command line, read leniently: a hook must never fail on its own arguments, so an
// unknown or malformed flag is ignored (and logged) instead of stopping the run.
import type { ConfigScope, ConfigValues } from '@graphiti-memory/memory-node-storage';

export interface HookOptions {
  /** The event this entry was installed for, used when stdin does not name one. */
  readonly event: string | undefined;
  /** The assistant this entry was installed for (`--agent`; absent in lines that run as Claude Code's). */
  readonly agent?: string | undefined;
  readonly installedBy: string | undefined;
  /** Run as the background drainer (spawned by Stop / SessionEnd / a stale SessionStart). */
  readonly drain: boolean;
  readonly workspace: string | undefined;
  /** Config values given as flags (`--endpoint`, `--scopes`, `--timeout-ms`, `--state-dir`). */
  readonly flags: ConfigValues;
  /** Flags that were not understood (names only). */
  readonly ignored: readonly string[];
}

const SCOPES: readonly ConfigScope[] = ['session', 'workspace', 'user', 'team'];

export function parseHookOptions(argv: readonly string[]): HookOptions {
  const values = new Map<string, string>();
  const ignored: string[] = [];
  let drain = false;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    if (argument === 'hook' && index === 0) continue;
    if (argument === '--drain') {
      drain = true;
      continue;
    }
    if (!argument.startsWith('--')) {
      ignored.push('(argument)');
      continue;
    }
    const equals = argument.indexOf('=');
    const name = equals < 0 ? argument : argument.slice(0, equals);
    const value = equals < 0 ? argv[++index] : argument.slice(equals + 1);
    if (value === undefined) ignored.push(name);
    else values.set(name, value);
  }
  const flags: Record<string, unknown> = {};
  const endpoint = values.get('--endpoint');
  if (endpoint !== undefined) flags['endpoint'] = endpoint;
  const stateDir = values.get('--state-dir');
  if (stateDir !== undefined && stateDir.trim() !== '') flags['stateDir'] = stateDir;
  const scopes = values.get('--scopes')?.split(',').map((scope) => scope.trim());
  if (scopes !== undefined) {
    if (scopes.every((scope): scope is ConfigScope => (SCOPES as readonly string[]).includes(scope))) flags['scopes'] = scopes;
    else ignored.push('--scopes');
  }
  const timeout = values.get('--timeout-ms');
  if (timeout !== undefined) {
    const parsed = Number(timeout);
    if (Number.isInteger(parsed) && parsed > 0) flags['recall'] = { timeoutMs: parsed };
    else ignored.push('--timeout-ms');
  }
  for (const name of values.keys()) {
    if (!['--endpoint', '--state-dir', '--scopes', '--timeout-ms', '--event', '--agent', '--installed-by', '--workspace'].includes(name)) ignored.push(name);
  }
  return {
    event: values.get('--event'),
    agent: values.get('--agent'),
    installedBy: values.get('--installed-by'),
    drain,
    workspace: values.get('--workspace'),
    flags: flags as ConfigValues,
    ignored,
  };
}
