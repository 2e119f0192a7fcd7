// Set / Clear API Key: the key goes to SecretStorage only and is never shown or logged.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { ApiKeyStore } from '../adapters/api-key-store.js';
import type { Contribution } from '../composition/tokens.js';

@injectable()
export class ApiKeyCommands implements Contribution {
  constructor(@inject(ApiKeyStore) private readonly keys: ApiKeyStore) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      vscode.commands.registerCommand('graphitiMemory.setApiKey', () => this.set()),
      vscode.commands.registerCommand('graphitiMemory.clearApiKey', () => this.clear()),
    );
  }

  async set(): Promise<{ readonly ok: boolean; readonly message: string }> {
    const key = await vscode.window.showInputBox({
      title: 'Graphiti Memory: API key',
      prompt: 'The key a proxy in front of Graphiti expects (sent as "Authorization: Bearer <key>"). Kept in VS Code secret storage.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'Enter a key, or press Escape.' : /\s/.test(value.trim()) ? 'A key has no spaces.' : undefined),
    });
    if (key === undefined) return { ok: false, message: 'The API key was not changed.' };
    await this.keys.set(key.trim());
    const message = 'Graphiti Memory: the API key was stored in secret storage.';
    void vscode.window.showInformationMessage(message);
    return { ok: true, message };
  }

  async clear(): Promise<{ readonly ok: boolean; readonly message: string }> {
    await this.keys.clear();
    const message = 'Graphiti Memory: the API key was removed.';
    void vscode.window.showInformationMessage(message);
    return { ok: true, message };
  }
}
