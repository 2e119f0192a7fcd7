// The two programs the scenario drives, each in the run's sandbox with its output kept as an
// artifact: the product's own binary (`graphiti-harness`) and the real Claude Code CLI, pointed at
// the scripted model server with everything that would leave the machine switched off.
import fs from 'node:fs';
import path from 'node:path';
import type { CommandResult, Sandbox } from './sandbox.js';
import { SetupError } from './setup.js';

const repositoryRoot = path.resolve(import.meta.dirname, '..', '..', '..');

/** The product's binary in this checkout; a SetupError when the harness is not built. */
export function harnessBinary(): string {
  const bin = path.join(repositoryRoot, 'apps', 'dev-harness', 'bin', 'graphiti-harness.js');
  const built = path.join(repositoryRoot, 'apps', 'dev-harness', 'dist', 'bin.js');
  if (!fs.existsSync(built)) {
    throw new SetupError(`No built harness at ${built}. Build it and the hook runner first: npx pnpm@10.34.8 turbo run build --filter=@graphiti-memory/dev-harness... (the root's test scripts do).`);
  }
  return bin;
}

export interface ToolPaths {
  /** apps/dev-harness/bin/graphiti-harness.js */
  readonly harness: string;
  /** The installed CLI's cli.js (absent where only the harness is driven: tooling/agent-clients-e2e). */
  readonly claude?: string;
}

export interface HarnessResult extends CommandResult {
  /** stdout parsed as JSON (the commands run with `--json`), or `undefined` when it is not JSON. */
  readonly json: Record<string, unknown> | undefined;
}

export interface ClaudeResult extends CommandResult {
  /** The `--output-format json` result object, or `undefined` when stdout is not one. */
  readonly result: { readonly result?: unknown; readonly session_id?: unknown; readonly is_error?: unknown } | undefined;
}

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export class Tools {
  private sequence = 0;

  constructor(
    private readonly sandbox: Sandbox,
    private readonly paths: ToolPaths,
    private readonly modelUrl: string,
  ) {}

  /** Keeps a command's exit, stdout and stderr as a numbered artifact of the run. */
  keep(label: string, args: readonly string[], result: CommandResult): void {
    const file = path.join(this.sandbox.artifacts, `${String(++this.sequence).padStart(2, '0')}-${label}.txt`);
    fs.writeFileSync(
      file,
      `$ ${args.join(' ')}\nexit ${result.status ?? result.signal} in ${result.ms} ms${result.timedOut ? ' (TIMED OUT, killed)' : ''}\n` +
        `--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}\n`,
    );
  }

  /** `graphiti-harness <args> --json` in the workspace. */
  async harness(args: readonly string[], timeoutMs = 30_000, keep = true): Promise<HarnessResult> {
    const argv = [this.paths.harness, ...args, '--json', '--no-color'];
    const result = await this.sandbox.run(process.execPath, argv, { cwd: this.sandbox.workspace, timeoutMs });
    if (keep) this.keep(`harness-${args.slice(0, 2).join('-')}`, ['graphiti-harness', ...args, '--json'], result);
    return { ...result, json: parseJson(result.stdout) };
  }

  /**
   * `claude -p PROMPT` in the workspace: print mode, JSON result; `dontAsk` denies any tool that
   * would need a permission prompt instead of waiting for one (the scripted model calls only our
   * MCP server's memory_recall, allowed with `--allowedTools` where the step offers it).
   */
  async claude(label: string, prompt: string, extraArgs: readonly string[] = [], timeoutMs = 60_000): Promise<ClaudeResult> {
    const args = ['-p', prompt, '--output-format', 'json', '--permission-mode', 'dontAsk', ...extraArgs];
    if (this.paths.claude === undefined) throw new Error('Tools was made without the Claude Code CLI (paths.claude).');
    const result = await this.sandbox.run(process.execPath, [this.paths.claude, ...args], {
      cwd: this.sandbox.workspace,
      timeoutMs,
      extraEnvironment: {
        ANTHROPIC_BASE_URL: this.modelUrl,
        ANTHROPIC_API_KEY: 'sk-ant-e2e-dummy-key',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_BUG_COMMAND: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
        CLAUDE_CODE_ENABLE_TELEMETRY: '0',
        CLAUDE_CODE_MAX_RETRIES: '0',
      },
    });
    this.keep(`claude-${label}`, ['claude', ...args], result);
    return { ...result, result: parseJson(result.stdout.trim()) };
  }
}
