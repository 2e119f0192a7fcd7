// The count of pending memories on the view (its badge, seen on the Explorer even while the view is
// closed) and a notification when new ones wait. Follows every refresh of the view, which the
// shared pending file's watcher triggers whichever tool proposed the memory.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { errorClassOf, Logger, MemoryGate, ReviewQueue } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';
import { ContributionPoints } from '../entry/contribution-points.js';
import { EPISODES_VIEW, EpisodesTreeProvider } from './episodes-view.js';

export const REVIEW = 'Review';

@injectable()
export class PendingBadgeContribution implements Contribution {
  /** The count last seen; `undefined` until the first read, which never notifies. */
  #known: number | undefined;
  #running: Promise<number> = Promise.resolve(0);

  constructor(
    @inject(ReviewQueue) private readonly review: ReviewQueue,
    @inject(EpisodesTreeProvider) private readonly provider: EpisodesTreeProvider,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(ContributionPoints) private readonly points: ContributionPoints,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(this.provider.onDidChangeTreeData(() => void this.update()));
    void this.update();
  }

  /** Reads the pending memories again and updates the badge; resolves to the count shown. */
  update(): Promise<number> {
    // One read at a time, in order: a burst of refreshes ends with the newest count.
    this.#running = this.#running.then(
      () => this.#update(),
      () => this.#update(),
    );
    return this.#running;
  }

  async #update(): Promise<number> {
    let count = 0;
    try {
      // While memory is off the view shows its welcome, not a review: no badge then.
      count = this.gate.evaluate().open ? (await this.review.list()).length : 0;
    } catch (error) {
      this.logger.warn('pending badge: reading pending memories failed', { errorClass: errorClassOf(error) });
      return this.#known ?? 0;
    }
    const view = this.points.treeView?.(EPISODES_VIEW);
    if (view !== undefined) {
      view.badge = count === 0 ? undefined : { value: count, tooltip: `${count} ${count === 1 ? 'memory waits' : 'memories wait'} for your review` };
    }
    const before = this.#known;
    this.#known = count;
    if (before !== undefined && count > before) this.#notify(count - before);
    return count;
  }

  #notify(added: number): void {
    const message = `Graphiti Memory: ${added} new ${added === 1 ? 'memory waits' : 'memories wait'} for your review. Nothing is stored until you approve.`;
    void vscode.window.showInformationMessage(message, REVIEW).then((answer) => {
      if (answer === REVIEW) void vscode.commands.executeCommand(`${EPISODES_VIEW}.focus`);
    });
  }
}
