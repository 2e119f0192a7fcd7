// The command line a hook file runs: an absolute node and an absolute script, so it works whatever
// the shell's PATH is. `--installed-by` marks our entries, so uninstall removes exactly those.
import path from 'node:path';

/** The events Graphiti Memory hooks into, in Claude Code / VS Code names. */
export const AGENT_HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd'] as const;
export type AgentHookEvent = (typeof AGENT_HOOK_EVENTS)[number];

/** Seconds the host waits for each event (the hook itself returns well before). */
export const AGENT_HOOK_TIMEOUT_SECONDS: Readonly<Record<AgentHookEvent, number>> = {
  SessionStart: 10,
  UserPromptSubmit: 10,
  Stop: 15,
  SessionEnd: 15,
};

export const INSTALLED_BY_FLAG = '--installed-by';

export interface AgentHookCommand {
  /** Absolute path of the node binary (`process.execPath`). */
  readonly nodePath: string;
  /** Absolute path of the runner script (the bundled `hook-runner.cjs` or `graphiti-harness.js`). */
  readonly scriptPath: string;
  /** Arguments after the script, before our own (e.g. `['hook']` for the harness binary). */
  readonly leadingArguments?: readonly string[];
  /** Who installs: `graphiti-harness`, `vscode`. */
  readonly installedBy: string;
  /**
   * Variables set for the command, spelled before it (`ELECTRON_RUN_AS_NODE=1` lets VS Code's
   * Electron binary run the runner as node). Names must be shell-safe identifiers.
   */
  readonly environment?: Readonly<Record<string, string>>;
}

export type CommandShell = 'posix' | 'powershell';

/**
 * The command for one event; `powershell` spells it for PowerShell on Windows. `agent` names the
 * assistant (`--agent`) for those whose input the runner must read as theirs.
 */
export function hookCommandLine(command: AgentHookCommand, event: AgentHookEvent, shell: CommandShell = 'posix', agent?: string): string {
  for (const [name, value] of [['nodePath', command.nodePath], ['scriptPath', command.scriptPath]] as const) {
    if (!path.isAbsolute(value)) throw new Error(`hookCommandLine: ${name} must be an absolute path (got ${JSON.stringify(value)})`);
  }
  const words = [command.nodePath, command.scriptPath, ...(command.leadingArguments ?? []), '--event', event, ...(agent === undefined ? [] : ['--agent', agent]), INSTALLED_BY_FLAG, command.installedBy];
  const variables = Object.entries(command.environment ?? {});
  for (const [name] of variables) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`hookCommandLine: ${JSON.stringify(name)} is not a valid environment variable name`);
  }
  if (shell === 'powershell') {
    const assignments = variables.map(([name, value]) => `$env:${name}=${powershellQuote(value)}; `).join('');
    return `${assignments}& ${words.map(powershellQuote).join(' ')}`;
  }
  const assignments = variables.map(([name, value]) => `${name}=${posixQuote(value)} `).join('');
  return `${assignments}${words.map(posixQuote).join(' ')}`;
}

/** True when a hook command line is one of ours. */
export function isOurHookCommand(commandLine: unknown): boolean {
  // PowerShell lines quote every word ('--event').
  return typeof commandLine === 'string' && / '?--event'? /.test(commandLine) && new RegExp(` '?${INSTALLED_BY_FLAG}'? `).test(commandLine);
}

/**
 * The runner script a posix hook command line runs (the word after the node binary, past any
 * `NAME=value` assignments), as `hookCommandLine` spells it; `undefined` when the line is not shaped so.
 */
export function hookCommandScript(commandLine: string): string | undefined {
  const words = posixWords(commandLine);
  if (words === undefined) return undefined;
  let index = 0;
  while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] ?? '')) index += 1;
  const script = words[index + 1];
  return script !== undefined && path.isAbsolute(script) ? script : undefined;
}

/** Splits what `posixQuote` joined: bare words and single-quoted ones (`'\\''` inside); `undefined` on an open quote. */
function posixWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quoted = false;
  let escaped = false;
  for (const character of line) {
    if (escaped) {
      word = (word ?? '') + character;
      escaped = false;
    } else if (quoted) {
      if (character === "'") quoted = false;
      else word = (word ?? '') + character;
    } else if (character === "'") {
      quoted = true;
      word ??= '';
    } else if (character === '\\') {
      escaped = true;
    } else if (character === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + character;
    }
  }
  if (quoted || escaped) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}

function posixQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function powershellQuote(word: string): string {
  return `'${word.replace(/'/g, "''")}'`;
}
