// Forget Workspace Memory: after a modal confirmation, deletes the workspace's Graphiti group.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { GraphitiConnection, GroupIdResolver, Logger, MemoryGate } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';
import { describeFailure, errorClass } from './describe-error.js';

export const FORGET = 'Forget';

export interface ForgetResult {
  readonly ok: boolean;
  readonly message: string;
}

/** Deletes the group of a scope after confirmation; shared by the command, /forget and the view. */
@injectable()
export class ScopeForgetter {
  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  async forget(scope: 'workspace' | 'user'): Promise<ForgetResult> {
    const decision = this.gate.evaluate();
    const client = this.connection.current();
    if (!decision.open || client === undefined) {
      return { ok: false, message: 'Graphiti Memory is off (or waits for consent) here, so nothing was deleted.' };
    }
    const groupId = await this.groups.resolve(scope);
    if (groupId === undefined) return { ok: false, message: `There is no ${scope} memory group here (open a folder first).` };
    const answer = await vscode.window.showWarningMessage(
      `Forget all ${scope} memory stored in Graphiti at ${decision.endpoint}?`,
      { modal: true, detail: `Every episode and fact of the ${scope} group is deleted from the server. This cannot be undone.` },
      FORGET,
    );
    if (answer !== FORGET) return { ok: false, message: 'Nothing was deleted.' };
    try {
      await client.deleteGroup(groupId);
      this.logger.info('forgot scope', { scope });
      return { ok: true, message: `Graphiti Memory: the ${scope} memory was deleted.` };
    } catch (error) {
      this.logger.warn('forget failed', { scope, errorClass: errorClass(error) });
      return { ok: false, message: describeFailure(decision.endpoint, error, 'Forgetting') };
    }
  }
}

@injectable()
export class ForgetWorkspaceCommand implements Contribution {
  constructor(@inject(ScopeForgetter) private readonly forgetter: ScopeForgetter) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(vscode.commands.registerCommand('graphitiMemory.forgetWorkspace', () => this.run()));
  }

  async run(): Promise<ForgetResult> {
    const result = await this.forgetter.forget('workspace');
    void (result.ok ? vscode.window.showInformationMessage(result.message) : vscode.window.showWarningMessage(result.message));
    return result;
  }
}
