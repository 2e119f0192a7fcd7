// Copy User Memory Key / Set User Memory Key, and keeping the key in force current: looked up when
// memory turns on (never while it is off: no account lookup, nothing sent) and when accounts change.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { MemoryGate } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';
import { MemoryStatus } from '../status/memory-status.js';
import { UserMemoryKey, type UserKeySource } from './user-memory-key.js';

const SOURCE_TEXT: Record<UserKeySource, string> = {
  set: 'the key you set',
  account: 'derived from the account VS Code is signed in to',
  shared: 'the user key every tool on this machine uses (graphiti-memory/config.json)',
};

@injectable()
export class UserKeyContribution implements Contribution {
  #gateWasOpen = false;

  constructor(
    @inject(UserMemoryKey) private readonly userKey: UserMemoryKey,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(MemoryStatus) private readonly status: MemoryStatus,
  ) {}

  register(context: vscode.ExtensionContext): void {
    const whenOpen = () => {
      const open = this.gate.evaluate().open;
      if (open && !this.#gateWasOpen) void this.userKey.resolve().catch(() => undefined);
      this.#gateWasOpen = open;
    };
    context.subscriptions.push(
      vscode.commands.registerCommand('graphitiMemory.copyUserKey', () => this.copy()),
      vscode.commands.registerCommand('graphitiMemory.setUserKey', (key?: unknown) => this.set(key)),
      this.status.onDidChange(whenOpen),
      vscode.authentication.onDidChangeSessions(() => {
        if (this.gate.evaluate().open) void this.userKey.resolve().catch(() => undefined);
      }),
    );
    whenOpen();
  }

  async copy(): Promise<{ readonly ok: boolean; readonly source: UserKeySource }> {
    const { key, source } = await this.userKey.resolve();
    await vscode.env.clipboard.writeText(key);
    void vscode.window.showInformationMessage(
      `Graphiti Memory: your user memory key (${SOURCE_TEXT[source]}) is on the clipboard. On another machine, run "Graphiti Memory: Set User Memory Key" and paste it to share your user memories there. Keep it private.`,
    );
    return { ok: true, source };
  }

  async set(argument?: unknown): Promise<{ readonly ok: boolean; readonly message: string }> {
    const key =
      typeof argument === 'string'
        ? argument
        : await vscode.window.showInputBox({
            title: 'Graphiti Memory: Set User Memory Key',
            prompt: 'Paste the key from "Copy User Memory Key" on your other machine. Memories of the user scope then go to the same place on both.',
            password: true,
            ignoreFocusOut: true,
            validateInput: (value) => (/^[A-Za-z0-9_-]{8,128}$/.test(value.trim()) ? undefined : '8 to 128 letters, digits, _ or -'),
          });
    if (key === undefined) return { ok: false, message: 'Graphiti Memory: the user memory key was not changed.' };
    const problem = await this.userKey.set(key);
    if (problem !== undefined) {
      void vscode.window.showErrorMessage(`Graphiti Memory: ${problem}`);
      return { ok: false, message: problem };
    }
    const message = 'Graphiti Memory: user memory key set. Your user memories now go to the same place as on the machine you copied it from.';
    void vscode.window.showInformationMessage(message);
    return { ok: true, message };
  }
}
