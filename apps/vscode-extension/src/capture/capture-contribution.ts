// capture.vscodeChat and capture.claudeCode: transcript captures that run only while their setting
// is on and the gate is open, started and stopped as settings, consent and trust change. Offsets
// and turn ids already handed over persist in workspaceState.
import path from 'node:path';
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { Ingestion, Logger, MemoryConfiguration, MemoryGate, WorkspaceStore, type ChatTurn, type KeyValueStore } from '@graphiti-memory/memory-core';
import { PARTICIPANT_ID } from '../chat/memory-participant.js';
import type { Contribution } from '../composition/tokens.js';
import { MemoryStatus } from '../status/memory-status.js';
import { claudeCodeFolderOf } from './claude-code-folders.js';
import { TranscriptCapture } from './transcript-capture.js';

export interface CaptureTiming {
  /** VS Code writes a turn to its session log only once it is finalized: a short quiet time is enough. */
  readonly vscodeChatIdleMs: number;
  /** Claude Code appends while a turn is under way (tool calls, permission prompts): wait longer. */
  readonly claudeCodeIdleMs: number;
  /** Changes closer than this are read together. */
  readonly debounceMs: number;
  /** How often a transcript folder that does not exist yet is looked for. */
  readonly folderCheckMs: number;
}
export const CaptureTiming = Symbol.for('graphiti-memory.vscode.CaptureTiming');
export const DEFAULT_CAPTURE_TIMING: CaptureTiming = { vscodeChatIdleMs: 2_000, claudeCodeIdleMs: 5 * 60_000, debounceMs: 250, folderCheckMs: 10_000 };

/** `workspaceStorage/<id>/chatSessions`: the sibling of the extension's own `storageUri` folder. */
export function chatSessionsFolder(storageUri: vscode.Uri | undefined): string | undefined {
  return storageUri === undefined || storageUri.scheme !== 'file' ? undefined : path.join(path.dirname(storageUri.fsPath), 'chatSessions');
}

@injectable()
export class CaptureContribution implements Contribution {
  #vscodeChat: TranscriptCapture | undefined;
  #claudeCode: TranscriptCapture[] = [];
  /** The filter the running captures read with (JSON), to notice a change. */
  #filterKey: string | undefined;

  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(Ingestion) private readonly ingestion: Ingestion,
    @inject(MemoryStatus) private readonly status: MemoryStatus,
    @inject(WorkspaceStore) private readonly workspaceStore: KeyValueStore,
    @inject(Logger) private readonly logger: Logger,
    @inject(CaptureTiming) private readonly timing: CaptureTiming,
  ) {}

  register(context: vscode.ExtensionContext): void {
    const options = {
      offsets: this.workspaceStore,
      enqueue: (turn: ChatTurn) => this.ingestion.enqueue(turn),
      logger: this.logger,
      debounceMs: this.timing.debounceMs,
      folderCheckMs: this.timing.folderCheckMs,
      backfillTurns: () => this.configuration.current().capture.backfillTurns,
      filter: () => this.configuration.current().filter,
    };
    const chatFolder = chatSessionsFolder(context.storageUri);
    if (chatFolder !== undefined) {
      this.#vscodeChat = new TranscriptCapture(
        {
          name: 'vscode-chat',
          folder: chatFolder,
          format: 'vscode-chat',
          idleMs: this.timing.vscodeChatIdleMs,
          // @memory's own turns are enqueued by the participant already.
          skip: (turn) => turn.participant === PARTICIPANT_ID,
        },
        options,
      );
    }
    this.#claudeCode = (vscode.workspace.workspaceFolders ?? [])
      .filter((folder) => folder.uri.scheme === 'file')
      .map(
        (folder) =>
          new TranscriptCapture(
            { name: 'claude-code', folder: claudeCodeFolderOf(folder.uri.fsPath), format: 'claude-code', idleMs: this.timing.claudeCodeIdleMs },
            options,
          ),
      );
    context.subscriptions.push(this.status.onDidChange(() => this.update()), this.configuration.onDidChange(() => this.update()), {
      dispose: () => this.stopAll(),
    });
    this.update();
  }

  /** Starts or stops each capture to match its setting and the gate; a changed filter restarts the running ones. */
  update(): void {
    const open = this.gate.evaluate().open;
    const { capture, filter } = this.configuration.current();
    const filterKey = JSON.stringify(filter);
    const filterChanged = this.#filterKey !== undefined && filterKey !== this.#filterKey;
    this.#filterKey = filterKey;
    // A capture switched on without consent for its category stays inert.
    void this.#vscodeChat?.set(open && capture.vscodeChat && this.gate.evaluate('workspaceChats').open);
    for (const claude of this.#claudeCode) void claude.set(open && capture.claudeCode && this.gate.evaluate('claudeCode').open);
    if (filterChanged) for (const running of this.#captures()) void running.restart();
  }

  /** Reads every running capture's transcripts now (tests, and a manual refresh); resolves with the turns handed over. */
  async scanNow(): Promise<number> {
    const counts = await Promise.all(this.#captures().map((capture) => capture.scanNow()));
    return counts.reduce((sum, count) => sum + count, 0);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.#captures().map((capture) => capture.set(false)));
  }

  #captures(): TranscriptCapture[] {
    return this.#vscodeChat === undefined ? this.#claudeCode : [this.#vscodeChat, ...this.#claudeCode];
  }
}
