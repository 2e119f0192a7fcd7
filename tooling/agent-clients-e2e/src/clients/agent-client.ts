// One real assistant CLI as the e2e drives it: the pinned npm package, the model API it speaks, its
// own settings (pointed at the scripted model, with everything that would leave the machine off),
// how one prompt is run, and where `hooks install --target <target>` writes. One module per client.
import type { PinnedCli, Sandbox } from '@graphiti-memory/claude-code-e2e/support';
import type { WireFormat } from '../wire/wire-format.js';

export type ClientTarget = 'codex' | 'gemini' | 'copilot-cli';

export interface ClientRunContext {
  readonly sandbox: Sandbox;
  /** The scripted model server's `http://127.0.0.1:<port>`. */
  readonly modelUrl: string;
  /** The folder of the pinned installs (`~/.cache/graphiti-memory-e2e`). */
  readonly cacheDirectory: string;
}

export interface ClientInvocation {
  /** Arguments after the CLI's entry script. */
  readonly args: readonly string[];
  readonly environment: Readonly<Record<string, string>>;
}

export interface AgentClient {
  /** The `--target` of `graphiti-harness hooks install`. */
  readonly target: ClientTarget;
  /** For output: `Codex`. */
  readonly title: string;
  readonly cli: PinnedCli;
  readonly format: WireFormat;
  /** Writes the client's own settings into the sandbox's HOME (before any install of ours). */
  configure(context: ClientRunContext): void;
  /** One one-shot prompt run in the workspace. */
  invocation(prompt: string, context: ClientRunContext): ClientInvocation;
  /** The files our hook install may write for this client (existing ones, at the time of the call). */
  hookFiles(home: string): string[];
}
