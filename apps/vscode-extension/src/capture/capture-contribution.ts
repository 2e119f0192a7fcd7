// capture.vscodeChat and capture.claudeCode: folder captures that run only while their setting is
// on and the gate is open, started and stopped as settings, consent and trust change.
import path from 'node:path';
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { Logger, MemoryConfiguration, MemoryGate, parseClaudeCodeTranscript, parseVsCodeChatSession } from '@graphiti-memory/memory-core';
import { PARTICIPANT_ID } from '../chat/memory-participant.js';
import { LazyIngestion, type Lazy } from '../composition/lazy.js';
import type { Contribution } from '../composition/tokens.js';
import type { MemoryIngestion } from '../memory/memory-services.js';
import { MemoryStatus } from '../status/memory-status.js';
import { claudeCodeFolderOf } from './claude-code-folders.js';
import { DEFAULT_CAPTURE_TIMING, FolderCapture, type FolderCaptureTiming } from './folder-capture.js';

export const CaptureTiming = Symbol.for('graphiti-memory.vscode.CaptureTiming');
export { DEFAULT_CAPTURE_TIMING };

/** `workspaceStorage/<id>/chatSessions`: the sibling of the extension's own `storageUri` folder. */
export function chatSessionsFolder(storageUri: vscode.Uri | undefined): string | undefined {
  return storageUri === undefined || storageUri.scheme !== 'file' ? undefined : path.join(path.dirname(storageUri.fsPath), 'chatSessions');
}

@injectable()
export class CaptureContribution implements Contribution {
  #vscodeChat: FolderCapture | undefined;
  #claudeCode: FolderCapture[] = [];

  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(LazyIngestion) private readonly ingestion: Lazy<MemoryIngestion>,
    @inject(MemoryStatus) private readonly status: MemoryStatus,
    @inject(Logger) private readonly logger: Logger,
    @inject(CaptureTiming) private readonly timing: FolderCaptureTiming,
  ) {}

  register(context: vscode.ExtensionContext): void {
    const enqueue = (turn: Parameters<MemoryIngestion['enqueue']>[0]) => this.ingestion.get().enqueue(turn);
    const chatFolder = chatSessionsFolder(context.storageUri);
    if (chatFolder !== undefined) {
      this.#vscodeChat = new FolderCapture(
        {
          name: 'vscode-chat',
          folder: chatFolder,
          extensions: ['.jsonl', '.json'],
          parse: (text, file) => parseVsCodeChatSession(text, { sessionId: path.basename(file).replace(/\.jsonl?$/, '') }),
          // @memory's own turns are enqueued by the participant already.
          skip: (turn) => turn.participant === PARTICIPANT_ID,
        },
        enqueue,
        this.logger,
        this.timing,
      );
    }
    this.#claudeCode = (vscode.workspace.workspaceFolders ?? [])
      .filter((folder) => folder.uri.scheme === 'file')
      .map(
        (folder) =>
          new FolderCapture(
            {
              name: 'claude-code',
              folder: claudeCodeFolderOf(folder.uri.fsPath),
              extensions: ['.jsonl'],
              parse: (text, file) => parseClaudeCodeTranscript(text, { sessionId: path.basename(file, '.jsonl') }),
            },
            enqueue,
            this.logger,
            this.timing,
          ),
      );
    context.subscriptions.push(this.status.onDidChange(() => this.update()), this.configuration.onDidChange(() => this.update()), {
      dispose: () => this.stopAll(),
    });
    this.update();
  }

  /** Starts or stops each capture to match its setting and the gate. */
  update(): void {
    const open = this.gate.evaluate().open;
    const capture = this.configuration.current().capture;
    toggle(this.#vscodeChat, open && capture.vscodeChat);
    for (const claude of this.#claudeCode) toggle(claude, open && capture.claudeCode);
  }

  /** Scans every running capture now (tests, and a manual refresh). */
  async scanNow(): Promise<number> {
    const running = [this.#vscodeChat, ...this.#claudeCode].filter((capture): capture is FolderCapture => capture?.running === true);
    const counts = await Promise.all(running.map((capture) => capture.scan()));
    return counts.reduce((sum, count) => sum + count, 0);
  }

  stopAll(): void {
    this.#vscodeChat?.stop();
    for (const claude of this.#claudeCode) claude.stop();
  }
}

function toggle(capture: FolderCapture | undefined, on: boolean): void {
  if (capture === undefined) return;
  if (on) capture.start();
  else capture.stop();
}
