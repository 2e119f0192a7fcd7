// Forget Workspace Memory: after a modal confirmation, deletes the workspace's group and every
// session group that ran in it (from the registry of written groups), dropping what is still queued
// for them first, so nothing of the workspace is sent afterwards. The agent hooks' processes are
// stopped first: the drainer lets go of its outbox journal, so what it held can be dropped too.
import { stopHookProcesses } from '@graphiti-memory/agent-hooks';
import { sharedStateDirectory } from '@graphiti-memory/memory-node-storage';
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { ForgetService, Logger, MemoryConfiguration, MemoryGate, type ForgetRequest, type GateDecision } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';
import { ForgetEvents } from '../memory/forget-events.js';
import { describeFailure, errorClass } from './describe-error.js';
import { showOutcome } from './show-outcome.js';

export const FORGET = 'Forget';

export interface ForgetResult {
  readonly ok: boolean;
  readonly message: string;
  /** Groups deleted on the server. */
  readonly deletedGroups?: readonly string[];
  /** Queued messages dropped before they were sent. */
  readonly dequeued?: number;
  /** The user declined the confirmation. */
  readonly cancelled?: boolean;
}

const WHAT: Record<'workspace' | 'user' | 'session', { readonly title: string; readonly detail: string }> = {
  workspace: {
    title: 'all memory of this workspace, its chat sessions included,',
    detail: 'Every episode and fact of the workspace group and of each session group of this workspace is deleted from the server, and what is still queued for them is dropped. User memories stay. This cannot be undone.',
  },
  session: {
    title: 'the memory of this chat session',
    detail: 'Every episode and fact of the session group is deleted from the server, and what is still queued for it is dropped. This cannot be undone.',
  },
  user: {
    title: 'all your user memory',
    detail: 'Every episode and fact of your user group (memories that follow you across workspaces) is deleted from the server. This cannot be undone.',
  },
};

/** Forgets a scope after confirmation; shared by the command, /forget and the view. */
@injectable()
export class ScopeForgetter {
  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(ForgetService) private readonly service: ForgetService,
    @inject(Logger) private readonly logger: Logger,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(ForgetEvents) private readonly events: ForgetEvents,
  ) {}

  async forget(scope: 'workspace' | 'user', options?: { readonly confirm?: boolean }): Promise<ForgetResult>;
  async forget(scope: 'session', options: { readonly sessionId: string; readonly label?: string; readonly confirm?: boolean }): Promise<ForgetResult>;
  async forget(
    scope: 'workspace' | 'user' | 'session',
    options: { readonly sessionId?: string; readonly label?: string; readonly confirm?: boolean } = {},
  ): Promise<ForgetResult> {
    const decision = this.gate.evaluate();
    const refused = forgetRefusal(decision);
    if (refused !== undefined) return { ok: false, message: refused };
    // Off or without consent, a user can still delete their own data: only delete requests go out.
    const endpoint = decision.open ? decision.endpoint : this.configuration.current().endpoint;
    const request: ForgetRequest = scope === 'session' ? { scope, sessionId: options.sessionId ?? '' } : { scope };
    if (scope === 'session' && (options.sessionId ?? '').trim() === '') return { ok: false, message: 'Pick a chat session in the Graphiti Memory view.' };
    const targets = await this.service.plan(request);
    if (targets.length === 0) return { ok: false, message: `There is no ${scope} memory group here (open a folder first).` };
    if (options.confirm !== false || !decision.open) {
      const what = WHAT[scope];
      const sessions = targets.filter((target) => target.scope === 'session').length;
      const detail = scope === 'workspace' ? `${what.detail} (${targets.length} group(s), ${sessions} of them chat sessions.)` : what.detail;
      const answer = await vscode.window.showWarningMessage(
        `Forget ${scope === 'session' && options.label ? `the memory of "${options.label}"` : what.title} stored in Graphiti at ${endpoint}?`,
        {
          modal: true,
          detail: decision.open
            ? detail
            : `${detail}\n\nMemory is off here, so this contacts ${endpoint} only to delete: it sends the group ids to delete, no chat content.`,
        },
        FORGET,
      );
      if (answer !== FORGET) return { ok: false, cancelled: true, message: 'Nothing was deleted.' };
    }
    try {
      await stopHookProcesses(process.env, await sharedStateDirectory(process.env));
      // The local tier is updated inside the forget itself; no chat keeps what it was given, even
      // when a delete is owed.
      const result = await this.service.forget(request).finally(() => this.events.fire('forget'));
      this.logger.info('forgot scope', { scope, groups: result.deletedGroups.length, failed: result.failed.length, dequeued: result.dequeued });
      const dropped = result.dequeued > 0 ? ` ${result.dequeued} queued message(s) were dropped before sending.` : '';
      const unreachable = result.failed.every((failure) => (failure.kind === 'connection' || failure.kind === 'timeout') && result.owed.includes(failure.groupId));
      if (result.failed.length > 0 && unreachable) {
        // Forgotten here already (nothing queued is sent, the turns are never captured again); the delete is owed.
        return {
          ok: true,
          deletedGroups: result.deletedGroups,
          dequeued: result.dequeued,
          message: `Graphiti Memory: Graphiti at ${endpoint} is unreachable; queued memories were dropped; the ${scope} memory will be deleted from it when it is back (on the next delivery, or run \`graphiti-harness forget --retry\`).`,
        };
      }
      if (result.failed.length > 0) {
        const first = result.failed[0];
        return {
          ok: false,
          deletedGroups: result.deletedGroups,
          dequeued: result.dequeued,
          message: `Graphiti Memory: ${result.failed.length} of ${targets.length} group(s) could not be deleted (${first?.errorClass ?? 'error'}); ${result.owed.length > 0 ? 'they are deleted on the next delivery, or run the forget again' : 'run the forget again to retry them'}.${dropped}`,
        };
      }
      return {
        ok: true,
        deletedGroups: result.deletedGroups,
        dequeued: result.dequeued,
        message: `Graphiti Memory: the ${scope} memory was deleted (${result.deletedGroups.length} group(s)).${dropped}`,
      };
    } catch (error) {
      this.logger.warn('forget failed', { scope, errorClass: errorClass(error) });
      return { ok: false, message: describeFailure(endpoint, error, 'Forgetting') };
    }
  }
}

/** Why nothing can be forgotten from here, or `undefined` when a forget may contact the server. */
function forgetRefusal(decision: GateDecision): string | undefined {
  if (decision.open) return undefined;
  switch (decision.reason) {
    case 'untrusted':
      return 'Graphiti Memory sends nothing from an untrusted workspace, not even a delete: trust the workspace first, then forget.';
    case 'invalid-settings':
      return 'Graphiti Memory cannot forget while a setting is invalid: fix it (see "Graphiti Memory: Show Status"), then forget.';
    case 'no-endpoint':
      return 'Graphiti Memory has no server to forget from: set graphitiMemory.endpoint to the server that holds the memory, then forget.';
    default:
      return undefined;
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
    return showOutcome(result);
  }
}
