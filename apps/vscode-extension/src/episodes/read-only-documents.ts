// Documents written for people — a memory, a conversation, the settings in force — opened read-only
// under a scheme of their own: VS Code neither edits nor asks to save them (never an Untitled
// editor). Markdown, shown in the preview when the built-in Markdown extension is there.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { errorClassOf, Logger } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';

export const DOCUMENT_SCHEME = 'graphiti-memory-doc';
/** Documents kept for reopening: the last ones opened, not a store. */
export const DOCUMENTS_KEPT = 100;

@injectable()
export class ReadOnlyDocuments implements Contribution, vscode.TextDocumentContentProvider {
  readonly #documents = new Map<string, string>();
  readonly #changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.#changed.event;

  constructor(@inject(Logger) private readonly logger: Logger) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(this.#changed, vscode.workspace.registerTextDocumentContentProvider(DOCUMENT_SCHEME, this));
  }

  /** The address of `text` under `title` (a file name people read: `Memory — We use zod.md`). */
  put(title: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: DOCUMENT_SCHEME, path: `/${title.replace(/[/\\]/g, '∕')}.md` });
    const key = uri.toString();
    this.#documents.delete(key);
    this.#documents.set(key, text);
    for (const old of this.#documents.keys()) {
      if (this.#documents.size <= DOCUMENTS_KEPT) break;
      this.#documents.delete(old);
    }
    this.#changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.#documents.get(uri.toString()) ?? '# No longer available\n\nOpen it again from the Graphiti Memory view.\n';
  }

  /** Opens `text` read-only, in the Markdown preview when there is one. */
  async open(title: string, text: string): Promise<vscode.Uri> {
    const uri = this.put(title, text);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch (error) {
      this.logger.info('read-only document: no Markdown preview; showing the document', { errorClass: errorClassOf(error) });
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    }
    return uri;
  }
}
