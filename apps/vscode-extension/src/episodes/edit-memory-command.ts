// Edit Memory… on a curated memory of the view: the user changes its text (a first line such as
// `preference (user): …` changes its kind and scope), and memory-core's MemoryEditing supersedes it —
// the new version promoted (gate, secret guard, local tier), the old one forgotten with the facts
// only it supports. Graphiti sees a new memory and the old one deleted. The view follows at once.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { errorClassOf, Ingestion, Logger, MemoryEditing, sourceForgetSummary, type MemoryEditOutcome } from '@graphiti-memory/memory-core';
import { showOutcome } from '../commands/show-outcome.js';
import type { Contribution } from '../composition/tokens.js';
import { ForgetEvents } from '../memory/forget-events.js';
import { REFUSALS } from '../memory/promotion-refusals.js';
import { EpisodesTreeProvider, type EpisodeNode } from './episodes-view.js';
import { kindWords, memoryText, scopeWords } from './memory-text.js';

export const EDIT_COMMAND = 'graphitiMemory.episodes.editMemory';

export interface EditResult {
  readonly ok: boolean;
  readonly status: MemoryEditOutcome['status'] | 'cancelled' | 'not-a-memory' | 'failed';
  readonly message: string;
  readonly cancelled?: boolean;
}

/** The user's words for each outcome (never an id). */
export function editMessage(outcome: MemoryEditOutcome): EditResult {
  switch (outcome.status) {
    case 'edited': {
      const forgotten = sourceForgetSummary(outcome.forgotten);
      return {
        ok: true,
        status: outcome.status,
        message: `Graphiti Memory: the ${kindWords(outcome.kind).toLowerCase()} was changed in ${scopeWords(outcome.scope)}: the new text is on its way to your Graphiti server and the old version is gone (${forgotten}).`,
      };
    }
    case 'old-kept':
      return {
        ok: false,
        status: outcome.status,
        message: 'Graphiti Memory: the new text is on its way, but the old version could not be deleted from your Graphiti server. Forget it from the view ("Forget This Source") once the server answers.',
      };
    case 'not-found':
      return { ok: false, status: outcome.status, message: 'Graphiti Memory: this memory is no longer on your Graphiti server (forgotten elsewhere?). Refresh the view.' };
    case 'not-curated':
      return { ok: false, status: outcome.status, message: 'Graphiti Memory: only curated memories can be edited; a conversation can only be forgotten.' };
    case 'not-yours':
      return { ok: false, status: outcome.status, message: 'Graphiti Memory: a teammate shared this memory, so only they can change it.' };
    case 'unchanged':
      return { ok: false, status: outcome.status, message: 'Graphiti Memory: the text is unchanged; nothing was changed.', cancelled: true };
    case 'refused':
      return { ok: false, status: outcome.status, message: `Graphiti Memory: the edit was not stored. ${REFUSALS[outcome.reason]}` };
  }
}

@injectable()
export class EditMemoryCommand implements Contribution {
  constructor(
    @inject(MemoryEditing) private readonly editing: MemoryEditing,
    @inject(EpisodesTreeProvider) private readonly provider: EpisodesTreeProvider,
    @inject(Ingestion) private readonly ingestion: Ingestion,
    @inject(ForgetEvents) private readonly events: ForgetEvents,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(vscode.commands.registerCommand(EDIT_COMMAND, (node?: EpisodeNode, text?: unknown) => this.edit(node, text)));
  }

  /** Asks for the new text (unless `text` gives it), then supersedes the memory. */
  async edit(node?: EpisodeNode, given?: unknown): Promise<EditResult> {
    if (node?.type !== 'episode' || node.scope === 'session') return { ok: false, status: 'not-a-memory', message: 'Pick a curated memory in the Graphiti Memory view.' };
    const current = memoryText(node.episode);
    const text =
      typeof given === 'string'
        ? given
        : await vscode.window.showInputBox({
            title: 'Edit Memory',
            prompt: 'The new text replaces this memory everywhere (recall and the briefs of every tool). Start with e.g. "preference (user): " to change its kind or scope.',
            value: current,
            ignoreFocusOut: true,
            validateInput: (value) => (value.trim() === '' ? 'A memory cannot be empty: forget it instead.' : undefined),
          });
    if (text === undefined) return { ok: false, status: 'cancelled', message: 'Nothing was changed.', cancelled: true };
    let result: EditResult;
    try {
      result = editMessage(await this.editing.edit({ episode: node.episode.uuid, text, groupId: node.episode.group_id }));
    } catch (error) {
      this.logger.warn('edit memory failed', { errorClass: errorClassOf(error) });
      result = { ok: false, status: 'failed', message: 'Graphiti Memory: your Graphiti server did not answer, so nothing was changed. Run "Graphiti Memory: Test Connection".' };
    }
    if (result.status === 'edited' || result.status === 'old-kept') {
      // The old text may have been given to a chat: withdrawn there, and the new one sent now.
      this.events.fire('forget');
      this.ingestion.retryNow();
    }
    this.provider.refresh();
    return showOutcome(result);
  }
}
