// Closing open loops by hand in the memory view: "Mark Loop Done" and "Drop Loop" close the loop in
// the shared loops file (LoopService.close, so every tool's next brief stops naming it) and hand the
// `task_update` episode to ingestion, so the graph and teammates' tools know when it was done (with
// Graphiti down it waits in the outbox). The view refreshes when any tool changes the loops file.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { errorClassOf, Ingestion, Logger, LoopService, MemoryGate, type LoopClosing } from '@graphiti-memory/memory-core';
import { sanitiseFactText } from '@graphiti-memory/prompt-elements';
import { sharedStateDirectory, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import type { Contribution } from '../composition/tokens.js';
import { showOutcome } from '../commands/show-outcome.js';
import { EpisodesTreeProvider, type EpisodeNode } from './episodes-view.js';
import { watchSharedFile, type SharedFileWatch } from './shared-file-watcher.js';

export const LOOP_DONE_COMMAND = 'graphitiMemory.loopDone';
export const LOOP_DROP_COMMAND = 'graphitiMemory.loopDrop';
/** How the evidence of a loop closed here names the tool. */
const TOOL = 'VS Code';

export interface LoopCloseResult {
  readonly ok: boolean;
  readonly status: 'done' | 'dropped' | 'off' | 'not-a-loop' | 'failed' | Exclude<LoopClosing, { ok: true }>['reason'];
  readonly message: string;
  /** Whether a `task_update` episode was handed to ingestion. */
  readonly taskUpdate?: boolean;
}

@injectable()
export class OpenLoopsContribution implements Contribution {
  constructor(
    @inject(LoopService) private readonly loops: LoopService,
    @inject(Ingestion) private readonly ingestion: Ingestion,
    @inject(EpisodesTreeProvider) private readonly provider: EpisodesTreeProvider,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  register(context: vscode.ExtensionContext): void {
    let watching: SharedFileWatch | undefined;
    let disposed = false;
    // Off the activation path; without a watch the view still re-reads the file on each refresh.
    void sharedStateDirectory()
      .then((folder) => watchSharedFile(sharedStateFiles(folder).loops, () => this.provider.refresh()))
      .then(
        (watch) => (disposed ? watch.dispose() : (watching = watch)),
        (error: unknown) => this.logger.info('open loops: not watching the shared file; the view updates on refresh', { errorClass: errorClassOf(error) }),
      );
    context.subscriptions.push(
      {
        dispose: () => {
          disposed = true;
          watching?.dispose();
        },
      },
      vscode.commands.registerCommand(LOOP_DONE_COMMAND, (node?: EpisodeNode) => this.close(node, 'done')),
      vscode.commands.registerCommand(LOOP_DROP_COMMAND, (node?: EpisodeNode) => this.close(node, 'dropped')),
    );
  }

  /** Closes (`done`) or drops the loop of `node`; says how it went. */
  async close(node: EpisodeNode | undefined, status: 'done' | 'dropped'): Promise<LoopCloseResult> {
    if (node?.type !== 'loop') return showOutcome<LoopCloseResult>({ ok: false, status: 'not-a-loop', message: 'Pick an open loop in the Graphiti Memory view.' });
    // Closing tells Graphiti (a task_update episode): nothing is changed while memory is off here.
    if (!this.gate.evaluate().open) {
      return showOutcome<LoopCloseResult>({ ok: false, status: 'off', message: 'Graphiti Memory is off here, so the loop was not closed: turn memory on (closing a loop tells Graphiti when it was done).' });
    }
    let closed: LoopClosing;
    try {
      closed = await this.loops.close(node.loop.loop.id, status, TOOL);
    } catch (error) {
      this.logger.warn('open loops: closing a loop failed', { errorClass: errorClassOf(error) });
      return showOutcome<LoopCloseResult>({ ok: false, status: 'failed', message: 'Graphiti Memory: the loops file could not be changed, so the loop stays open. See the Graphiti Memory log.' });
    }
    this.provider.refresh();
    if (!closed.ok) return showOutcome<LoopCloseResult>({ ok: false, status: closed.reason, message: refusal(closed.reason) });
    this.ingestion.enqueueEntries(closed.entries);
    const text = sanitiseFactText(closed.loop.text);
    return showOutcome<LoopCloseResult>({
      ok: true,
      status,
      taskUpdate: closed.entries.length > 0,
      message: `Graphiti Memory: ${status === 'done' ? 'done' : 'dropped'}: "${text}". Briefs no longer name it${closed.entries.length > 0 ? '; Graphiti is told.' : '.'}`,
    });
  }
}

function refusal(reason: Exclude<LoopClosing, { ok: true }>['reason']): string {
  switch (reason) {
    case 'not-open':
      return 'Graphiti Memory: that loop was already closed (in another window or tool). The view is refreshed.';
    case 'not-found':
      return 'Graphiti Memory: that loop is no longer kept (forgotten, or closed long ago). The view is refreshed.';
    case 'ambiguous':
      return 'Graphiti Memory: more than one loop has that id; close it with graphiti-harness loops done and the full id.';
    case 'no-workspace':
      return 'Graphiti Memory: this window has no workspace folder, so it has no loops.';
  }
}
