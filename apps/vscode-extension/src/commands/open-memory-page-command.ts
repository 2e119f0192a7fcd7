// Open Memory Page: starts `graphiti-harness ui` (the memory page on 127.0.0.1, issue 32 item 1) for
// this workspace and the endpoint in force, reads the URL it prints first (with its per-run token),
// and opens it in the browser. One page per window: a second run opens the same URL; the page stops
// with the window. Without the CLI it says how to install it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { Logger, MemoryConfiguration } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';
import { showOutcome } from './show-outcome.js';

export const OPEN_MEMORY_PAGE = 'graphitiMemory.openMemoryPage';
export const HARNESS_COMMAND = 'graphiti-harness';
// The CLI is not on the npm registry yet: it is packed from a checkout (the root README's quick start).
export const INSTALL_COMMAND = 'npx --yes pnpm@10.34.8 pack:cli && npm install -g ./dist/packages/graphiti-harness-*.tgz';
export const COPY_INSTALL = 'Copy Install Command';
/** How long the page may take to print its URL (node starting on a busy machine). */
export const PAGE_START_TIMEOUT_MS = 30_000;

export interface OpenMemoryPageResult {
  readonly ok: boolean;
  readonly message: string;
  readonly url?: string;
}

/** The page's URL from its first line: loopback only (anything else is not our page). */
export function pageUrlOf(line: string): string | undefined {
  const match = /https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+\/\S*/.exec(line);
  return match?.[0];
}

@injectable()
export class OpenMemoryPageCommand implements Contribution {
  #page: { readonly process: ChildProcess; readonly url: Promise<string> } | undefined;

  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(vscode.commands.registerCommand(OPEN_MEMORY_PAGE, () => this.open()), { dispose: () => this.#stop() });
  }

  async open(): Promise<OpenMemoryPageResult> {
    let url: string;
    try {
      url = await (this.#page ?? this.#start()).url;
    } catch (error) {
      this.#stop();
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      this.logger.warn('open memory page failed', { missing });
      if (missing) {
        const message = `Graphiti Memory: the memory page needs the graphiti-harness command, which was not found. Install it from a checkout of graphiti-memory with \`${INSTALL_COMMAND}\` (the README's quick start), then run Open Memory Page again.`;
        void Promise.resolve(vscode.window.showWarningMessage(message, COPY_INSTALL)).then((choice) => {
          if (choice === COPY_INSTALL) void vscode.env.clipboard.writeText(INSTALL_COMMAND);
        });
        return { ok: false, message };
      }
      return showOutcome({ ok: false, message: `Graphiti Memory: the memory page did not start (${error instanceof Error ? error.message : String(error)}). Run \`${HARNESS_COMMAND} ui\` in a terminal to see why.` });
    }
    await vscode.env.openExternal(vscode.Uri.parse(url));
    return { ok: true, message: 'Graphiti Memory: the memory page is open in your browser.', url };
  }

  #start(): { readonly process: ChildProcess; readonly url: Promise<string> } {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const endpoint = this.configuration.current().endpoint;
    // The page serves the endpoint this window uses (a VS Code setting the CLI would not read otherwise).
    const child = spawn(HARNESS_COMMAND, ['ui'], {
      // The workspace scope is derived from the folder the CLI runs in; a missing folder would fail the start (ENOENT).
      cwd: folder?.scheme === 'file' && existsSync(folder.fsPath) ? folder.fsPath : undefined,
      env: { ...process.env, ...(endpoint === '' ? {} : { GRAPHITI_MEMORY_ENDPOINT: endpoint }) },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Windows finds `graphiti-harness.cmd` only through a shell.
      shell: process.platform === 'win32',
    });
    const url = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address within ${PAGE_START_TIMEOUT_MS / 1000} seconds`)), PAGE_START_TIMEOUT_MS);
      const lines = createInterface({ input: child.stdout! });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr = `${stderr}${chunk.toString()}`.slice(-500)));
      lines.once('line', (line) => {
        clearTimeout(timer);
        const found = pageUrlOf(line);
        if (found === undefined) reject(new Error(`it printed no address: ${line.slice(0, 200)}`));
        else resolve(found);
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        if (this.#page?.process === child) this.#page = undefined;
        reject(new Error(`it stopped (exit code ${code ?? 'none'})${stderr.trim() === '' ? '' : `: ${stderr.trim().split('\n').at(-1)}`}`));
      });
    });
    this.#page = { process: child, url };
    return this.#page;
  }

  #stop(): void {
    const page = this.#page;
    this.#page = undefined;
    if (page !== undefined && page.process.exitCode === null) page.process.kill();
  }
}
