// Review of pending memories in the view: approve (optionally edited) sends the memory, reject drops
// it. Nothing pending was sent before; a memory refused on approval (a secret in the edit, memory
// off) stays pending with a message saying why. The memories are those of every tool (the shared
// state folder's file): the view refreshes when the harness or an agent hook adds one.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { describeLoopProposalMiss, errorClassOf, FORGOTTEN_PENDING_REASON, GroupIdResolver, Logger, MemoryGate, ReviewQueue, type ReviewOutcome } from '@graphiti-memory/memory-core';
import { sharedStateDirectory, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import type { Contribution } from '../composition/tokens.js';
import { REFUSALS } from '../memory/promotion-refusals.js';
import { EpisodesTreeProvider, type EpisodeNode } from './episodes-view.js';
import { showOutcome } from '../commands/show-outcome.js';
import { watchSharedFile, type SharedFileWatch } from './shared-file-watcher.js';

export interface ReviewResult {
  readonly ok: boolean;
  readonly status: ReviewOutcome['status'] | 'cancelled';
  readonly message: string;
}

@injectable()
export class PendingMemoriesContribution implements Contribution {
  constructor(
    @inject(ReviewQueue) private readonly review: ReviewQueue,
    @inject(EpisodesTreeProvider) private readonly provider: EpisodesTreeProvider,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  register(context: vscode.ExtensionContext): void {
    let watching: SharedFileWatch | undefined;
    let disposed = false;
    // Off the activation path; without a watch the view still re-reads the file on each refresh.
    void sharedStateDirectory()
      .then((folder) => watchSharedFile(sharedStateFiles(folder).pendingMemories, () => this.provider.refresh()))
      .then(
        (watch) => (disposed ? watch.dispose() : (watching = watch)),
        (error: unknown) => this.logger.info('pending memories: not watching the shared file; the view updates on refresh', { errorClass: errorClassOf(error) }),
      );
    context.subscriptions.push(
      {
        dispose: () => {
          disposed = true;
          watching?.dispose();
        },
      },
      vscode.commands.registerCommand('graphitiMemory.pending.approve', (node?: EpisodeNode) => this.approve(node)),
      vscode.commands.registerCommand('graphitiMemory.pending.approveEdited', (node?: EpisodeNode, text?: unknown) => this.approve(node, { edit: true, text })),
      vscode.commands.registerCommand('graphitiMemory.pending.reject', (node?: EpisodeNode) => this.reject(node)),
    );
  }

  /** Approves the memory; with `edit`, the user changes the text first (`text` skips the input box). */
  async approve(node?: EpisodeNode, options: { readonly edit?: boolean; readonly text?: unknown } = {}): Promise<ReviewResult> {
    if (node?.type !== 'pending') return { ok: false, status: 'not-found', message: 'Pick a pending memory in the Graphiti Memory view.' };
    let text: string | undefined;
    if (options.edit === true) {
      text =
        typeof options.text === 'string'
          ? options.text
          : await vscode.window.showInputBox({
              title: `Edit the ${node.memory.kind} before storing it in ${node.memory.scope} memory`,
              value: node.memory.text,
              ignoreFocusOut: true,
              validateInput: (value) => (value.trim() === '' ? 'The memory cannot be empty; reject it instead.' : undefined),
            });
      if (text === undefined) return { ok: false, status: 'cancelled', message: 'Nothing was approved.' };
    }
    const outcome = await this.review.approve(node.memory.id, text === undefined ? {} : { text });
    return this.#report(outcome);
  }

  async reject(node?: EpisodeNode): Promise<ReviewResult> {
    if (node?.type !== 'pending') return { ok: false, status: 'not-found', message: 'Pick a pending memory in the Graphiti Memory view.' };
    return this.#report(await this.review.reject(node.memory.id));
  }

  #report(outcome: ReviewOutcome): ReviewResult {
    this.provider.refresh();
    let result: ReviewResult;
    switch (outcome.status) {
      case 'sent':
        result = { ok: true, status: 'sent', message: outcome.memory.loop === undefined ? `Graphiti Memory: the ${outcome.memory.kind} is stored in ${outcome.memory.scope} memory.` : `Graphiti Memory: ${outcome.memory.loop.action === 'open' ? 'the loop is open' : 'the loop is done'}.` };
        break;
      case 'not-applied':
        result = { ok: false, status: 'not-applied', message: `Graphiti Memory: not approved: ${describeLoopProposalMiss(outcome.reason)}.` };
        break;
      case 'rejected':
        result = { ok: true, status: 'rejected', message: `Graphiti Memory: the ${outcome.memory.kind} was rejected; nothing was sent.` };
        break;
      case 'refused':
        result = { ok: false, status: 'refused', message: `Graphiti Memory: still pending. ${REFUSALS[outcome.reason]}` };
        break;
      case 'forgotten':
        result = { ok: false, status: 'forgotten', message: `Graphiti Memory: not approved: ${FORGOTTEN_PENDING_REASON}.` };
        break;
      case 'not-found':
        result = { ok: false, status: 'not-found', message: 'Graphiti Memory: that memory is no longer pending (approved or rejected elsewhere).' };
        break;
    }
    return showOutcome(result);
  }
}
