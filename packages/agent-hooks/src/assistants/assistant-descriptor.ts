// One assistant, everything Graphiti Memory knows about it, in one object: its hook file and that
// file's format, its event names for our four handlers, the input it sends, the output it reads,
// its transcript, how it marks a finished turn, how it is found on this machine, and any trust step
// it needs. Installers, the runner, `hooks status`, `doctor` and capture read these; nothing else
// names an assistant. The runner's entry bundles this folder: node built-ins and type imports only.
import type { AgentTranscriptFormat } from '@graphiti-memory/memory-core';

/** Our handlers, in Claude Code's names (the names the runner logs). */
export const HANDLER_EVENTS = ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd'] as const;
export type HandlerEvent = (typeof HANDLER_EVENTS)[number];

export type Environment = Readonly<Record<string, string | undefined>>;

/** A variable's value, `undefined` when unset or blank. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * Where the assistant reads hooks and how the file is laid out.
 * - `grouped`: `{"hooks": {"<Event>": [{"hooks": [{"type": "command", "command": …, "timeout": N}]}]}}`
 *   (Claude Code, Codex, Gemini CLI), merged into a file the user shares with us.
 * - `flat`: `{"version": 1, "hooks": {"<event>": [{"type": "command", "<posix key>": …, "<windows key>": …, "timeoutSec": N}]}}`,
 *   a file of ours alone (Copilot in VS Code, Copilot CLI).
 */
export interface HookFileFormat {
  readonly layout: 'grouped' | 'flat';
  /** The key of the POSIX shell's command line, and of PowerShell's (`null`: the assistant reads none). */
  readonly commandKeys: { readonly posix: string; readonly windows: string | null };
  /** The key of the timeout and its unit. */
  readonly timeoutKey: string;
  readonly timeoutUnit: 'seconds' | 'milliseconds';
  /** Each entry carries a `name` (Gemini CLI shows it). */
  readonly named: boolean;
  /** The file holds the user's own settings too: merged, never replaced; ours alone is deleted when empty. */
  readonly shared: boolean;
  /** Our command lines name the assistant (`--agent <target>`), so the runner reads the input as it sends it. */
  readonly agentArgument: boolean;
}

export interface HookFileDescriptor {
  /** The hook file, in `home` (and the assistant's own variables, e.g. `CODEX_HOME`). */
  path(home: string, env: Environment): string;
  readonly format: HookFileFormat;
}

/** What the assistant sends on stdin: the names of the fields we read (the first present wins). */
export interface HookInputDescriptor {
  readonly fieldCase: 'snake_case' | 'camelCase';
  /** The field naming the event; empty when the input names none (the event comes from our command line's `--event`). */
  readonly eventName: readonly string[];
  readonly sessionId: readonly string[];
  readonly transcriptPath: readonly string[];
  /** Our handlers whose input carries the transcript path (the others may not). */
  readonly transcriptPathOn: readonly HandlerEvent[];
  /** Where the transcript is for an event that does not name it (from the home folder and the session); `null`: nowhere known. */
  readonly transcriptPathOf: ((home: string, sessionId: string) => string | undefined) | null;
  readonly cwd: readonly string[];
  readonly prompt: readonly string[];
  /** The turn end's field with the reply the assistant finished with; empty when it sends none. */
  readonly lastReply: readonly string[];
  /** Tags the assistant wraps our own earlier context in inside `prompt` (removed before recall searches the prompt). */
  readonly ownContextTags: readonly string[];
}

/** What the assistant reads from our stdout. */
export interface HookOutputDescriptor {
  /**
   * `hook-specific`: `{"hookSpecificOutput": {"hookEventName": <its event>, "additionalContext": …}}`;
   * `flat`: `{"additionalContext": …}`.
   */
  readonly shape: 'hook-specific' | 'flat';
  /** Our handlers whose context it puts in front of the model. */
  readonly contextOn: readonly HandlerEvent[];
  /** It shows a top-level `systemMessage` to the user (a configuration problem is told so); false: never printed. */
  readonly systemMessage: boolean;
}

export type ContextLifetime = 'conversation' | 'turn';

export interface TranscriptDescriptor {
  /** The formats its events' transcripts may be in, its own first (hosts that read the same hook file add theirs). */
  readonly formats: readonly AgentTranscriptFormat[];
  /** Where the assistant keeps it, as a person would look for it. */
  readonly location: string;
  /** How a finished turn is recognised (the reader's rule, said once here). */
  readonly finishedTurn: string;
  /** How long hook context stays in front of the model: what say-it-once may leave out. */
  contextLifetime(hook: { readonly transcriptPath: string | undefined }): ContextLifetime;
}

export interface DetectionDescriptor {
  /** Folders in the home folder it creates (exact names). */
  readonly homeFolders: readonly string[];
  /** Beginnings of folder names in the home folder (`.vscode` finds `.vscode`, `.vscode-insiders`, `.vscode-server`). */
  readonly homeFolderPrefixes: readonly string[];
  /** Its command on PATH. */
  readonly commands: readonly string[];
}

/** A step without which the assistant does not run our hooks, and whether it was taken. */
export interface TrustDescriptor {
  /**
   * Which step (installers/trust-steps.ts runs it; its facts live beside the descriptor, e.g.
   * codex-hook-trust.ts). Named, not imported: a hook run never loads the file edits.
   */
  readonly step: TrustStepName;
  /** What the user does by hand when the installer cannot take the step. */
  readonly manualStep: string;
}

export const TRUST_STEPS = ['codex-hooks-state'] as const;
export type TrustStepName = (typeof TRUST_STEPS)[number];

export interface TrustStatus {
  /** Every entry of ours will run. */
  readonly trusted: boolean;
  /** Said to the user: which entries are not trusted and why. */
  readonly detail: string;
}

export interface TrustStep {
  /** Records the assistant's trust for exactly our entries in `hookFile` (already written); throws only on an unreadable file, untouched. */
  record(options: { readonly home: string; readonly env: Environment; readonly hookFile: string }): Promise<TrustRecorded>;
  /** Removes the trust records of our entries (uninstall). */
  forget(options: { readonly home: string; readonly env: Environment; readonly hookFile: string }): Promise<TrustRecorded>;
  status(options: { readonly home: string; readonly env: Environment; readonly hookFile: string }): Promise<TrustStatus>;
}

export interface TrustRecorded {
  readonly file: string;
  readonly changed: boolean;
  /** Set when the step could not be taken safely: what to do instead. */
  readonly manualStep?: string;
}

/** Where an MCP client's files are looked for (tests pass temporary ones). */
export interface McpClientPlace {
  readonly home: string;
  readonly env?: Environment;
  readonly platform?: NodeJS.Platform;
}

/** What an MCP client runs: an absolute program and its arguments (no shell, no PATH lookup). */
export interface McpServerCommand {
  readonly command: string;
  readonly args: readonly string[];
}

/** The assistant's user-level list of MCP servers, where `graphiti-harness mcp install --target <target>` puts ours. */
export interface McpClientDescriptor {
  /** `mcp install --target <target>`. */
  readonly target: string;
  /** How messages name it. */
  readonly label: string;
  readonly format: 'json' | 'toml';
  /** The key holding the servers (`mcpServers`, `servers`; the TOML table `mcp_servers`). */
  readonly key: string;
  file(place: McpClientPlace): string;
  /** Our entry's value. */
  entry(command: McpServerCommand): Record<string, unknown>;
}

export interface AssistantDescriptor<Target extends string = string> {
  /** `--target <target>`. */
  readonly target: Target;
  /** What the user calls it. */
  readonly name: string;
  readonly hookFile: HookFileDescriptor;
  /** Its event name for each of our handlers, as its hook file names them; `null` where it has none (no session end). */
  readonly events: Readonly<Record<HandlerEvent, string | null>>;
  /** Seconds it waits for each of our handlers (the hook answers well before). */
  readonly timeoutSeconds: Readonly<Record<HandlerEvent, number>>;
  /**
   * Whether it runs its session start and the session's first prompt at the same time (Copilot CLI):
   * the prompt then waits for the brief, so what the brief gives is not recalled again.
   */
  readonly startsBesidePrompt: boolean;
  readonly input: HookInputDescriptor;
  readonly output: HookOutputDescriptor;
  readonly transcript: TranscriptDescriptor;
  readonly detection: DetectionDescriptor;
  /** `null`: it runs what its hook file says. */
  readonly trust: TrustDescriptor | null;
  /** Its MCP server list; `null`: we do not install our MCP server into it. */
  readonly mcp: McpClientDescriptor | null;
}
