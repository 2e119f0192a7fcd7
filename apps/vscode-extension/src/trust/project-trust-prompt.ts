// A project's `.graphiti-memory.json` may only narrow what is sent until the user trusts that exact
// file. When it asks for more (keys the configuration ignored), ask once per file content: "Trust
// This File" records the same trust as `graphiti-harness config trust` (the state folder's trust
// store, keyed by path and sha256), so the hooks and the harness honour it too; editing the file
// makes it lapse, and the question comes again for the new content. The sha256 is the one the
// configuration computed for the content it read: an edit while the question is open is not trusted.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { Logger, MemoryConfiguration, SettingsSource } from '@graphiti-memory/memory-core';
import { sharedStateDirectory, trustProjectFile } from '@graphiti-memory/memory-node-storage';
import { VsCodeSettingsSource } from '../adapters/vscode-settings-source.js';
import { ExtensionContext, type Contribution } from '../composition/tokens.js';

export const TRUST_FILE = 'Trust This File';
export const KEEP_IGNORING = 'Keep Ignoring';
export const OPEN_FILE = 'Open File';

/** Files and contents the user answered "Keep Ignoring" for: `path sha256`. */
const ANSWERED_KEY = 'graphitiMemory.projectTrustAnswered';

export interface TrustPromptResult {
  readonly file: string;
  readonly keys: readonly string[];
  readonly answer: typeof TRUST_FILE | typeof KEEP_IGNORING | typeof OPEN_FILE | undefined;
}

/** The question for `file` whose `keys` were ignored. */
export function trustQuestion(file: string, keys: readonly string[]): string {
  return `The project file ${file} asks Graphiti Memory for ${keys.join(', ')}, which a project file may only set once you trust it; until then they are ignored. Trust this file? (Editing it ends the trust.)`;
}

@injectable()
export class ProjectTrustPrompt implements Contribution {
  /** `path sha256` asked about in this window (also "Open File" and Escape: no nagging). */
  readonly #asked = new Set<string>();
  #last: Promise<TrustPromptResult | undefined> = Promise.resolve(undefined);

  constructor(
    @inject(SettingsSource) private readonly settings: SettingsSource,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(ExtensionContext) private readonly context: vscode.ExtensionContext,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      this.configuration.onDidChange(() => void this.check()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.check()),
      vscode.commands.registerCommand('graphitiMemory.reviewProjectFileTrust', () => this.check({ again: true })),
    );
    setTimeout(() => void this.check(), 0);
  }

  /** Asks about the project file when it has ignored keys and this content was not answered yet. Never rejects. */
  check(options: { readonly again?: boolean } = {}): Promise<TrustPromptResult | undefined> {
    this.#last = this.#last.then(
      () => this.#check(options.again === true).catch((error: unknown) => {
        this.logger.warn('project trust prompt failed', { errorClass: error instanceof Error ? error.name : 'unknown' });
        return undefined;
      }),
    );
    return this.#last;
  }

  async #check(again: boolean): Promise<TrustPromptResult | undefined> {
    // An untrusted window sends nothing anyway; trusting a file there would be a decision without context.
    if (!vscode.workspace.isTrusted || !(this.settings instanceof VsCodeSettingsSource)) return undefined;
    // Read now: the file may have changed since the configuration last did (its watcher is not instant).
    this.settings.read();
    const effective = this.settings.effective();
    const file = effective.files.project;
    if (file === undefined) return undefined;
    // `*` means the file was not read at all (outside the repository, another owner): trust cannot help.
    const keys = [...new Set(effective.ignored.filter((entry) => entry.file === file && entry.key !== '*').map((entry) => entry.key))];
    if (keys.length === 0) return undefined;
    // The content the configuration read, and the keys above came from: what the user is asked about and trusts.
    const digest = effective.projectDigest;
    if (digest === undefined) return undefined;
    const key = `${file} ${digest}`;
    const answered = this.context.globalState.get<string[]>(ANSWERED_KEY) ?? [];
    if (!again && (this.#asked.has(key) || answered.includes(key))) return undefined;
    this.#asked.add(key);
    const answer = await vscode.window.showInformationMessage(trustQuestion(file, keys), TRUST_FILE, KEEP_IGNORING, OPEN_FILE);
    if (answer === TRUST_FILE) {
      await trustProjectFile(await sharedStateDirectory(process.env), file, digest);
      this.logger.info('project file trusted', { keys: keys.length });
      // The trust store is not one of the watched config files: read the configuration again now.
      reload(this.configuration);
    } else if (answer === KEEP_IGNORING) {
      await this.context.globalState.update(ANSWERED_KEY, [...answered.filter((entry) => !entry.startsWith(`${file} `)), key]);
    } else if (answer === OPEN_FILE) {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
    }
    return { file, keys, answer };
  }
}

function reload(configuration: MemoryConfiguration): void {
  const reloadable = configuration as MemoryConfiguration & { reload?: () => void };
  if (typeof reloadable.reload === 'function') reloadable.reload();
}
