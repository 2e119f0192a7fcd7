// Import Claude Code Sessions: pick `.jsonl` transcripts (default folder: this workspace's under
// ~/.claude/projects), parse them, and enqueue every finished turn. Turn ids are stable, so
// importing a file twice sends nothing new. An argument (file paths) skips the dialog.
import fs from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { errorClassOf, Ingestion, Logger, MemoryConfiguration, MemoryGate, parseClaudeCodeTranscript } from '@graphiti-memory/memory-core';
import { claudeCodeFolderOf, claudeCodeProjectsFolder } from '../capture/claude-code-folders.js';
import type { Contribution } from '../composition/tokens.js';
import { ConsentFlow } from '../consent/consent-flow.js';
import { showOutcome } from './show-outcome.js';

export interface ImportResult {
  readonly ok: boolean;
  readonly files: number;
  readonly turns: number;
  readonly message: string;
}

@injectable()
export class ImportClaudeCodeCommand implements Contribution {
  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(Ingestion) private readonly ingestion: Ingestion,
    @inject(Logger) private readonly logger: Logger,
    @inject(ConsentFlow) private readonly consent: ConsentFlow,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      vscode.commands.registerCommand('graphitiMemory.importClaudeCodeSessions', (files?: unknown) => this.run(files)),
    );
  }

  async run(files?: unknown): Promise<ImportResult> {
    const result = await this.#run(files);
    return showOutcome(result);
  }

  async #run(given: unknown): Promise<ImportResult> {
    if (!this.gate.evaluate().open) {
      return { ok: false, files: 0, turns: 0, message: 'Graphiti Memory is off (or waits for consent) here, so nothing was imported.' };
    }
    // Claude Code sessions are their own consent category: asked for here when not agreed to yet.
    if (!this.gate.evaluate('claudeCode').open && (await this.consent.askForCategories({ extra: ['claudeCode'] })) !== 'granted') {
      return { ok: false, files: 0, turns: 0, message: 'You have not agreed to send Claude Code sessions, so nothing was imported.' };
    }
    const paths = Array.isArray(given) ? given.map((item) => (item instanceof vscode.Uri ? item.fsPath : String(item))) : await this.#pick();
    if (paths === undefined || paths.length === 0) return { ok: false, files: 0, turns: 0, message: 'Nothing was imported.' };
    let turns = 0;
    let failed = 0;
    for (const file of paths) {
      try {
        const parsed = parseClaudeCodeTranscript(await fs.readFile(file, 'utf8'), {
          sessionId: path.basename(file, '.jsonl'),
          filter: this.configuration.current().filter,
        });
        for (const turn of parsed.turns) this.ingestion.enqueue(turn);
        // An imported transcript is a finished session: its digests close now.
        this.ingestion.endSessions(parsed.turns.map((turn) => turn.sessionId));
        turns += parsed.turns.length;
      } catch (error) {
        failed += 1;
        this.logger.warn('import: a transcript could not be read', { errorClass: errorClassOf(error) });
      }
    }
    this.logger.info('imported Claude Code sessions', { files: paths.length, turns, failed });
    const unreadable = failed > 0 ? ` ${failed} file(s) could not be read.` : '';
    return { ok: failed < paths.length, files: paths.length, turns, message: `Graphiti Memory: queued ${turns} turn(s) from ${paths.length - failed} Claude Code session(s).${unreadable}` };
  }

  async #pick(): Promise<string[] | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const defaultFolder = folder?.uri.scheme === 'file' ? claudeCodeFolderOf(folder.uri.fsPath) : claudeCodeProjectsFolder();
    const picked = await vscode.window.showOpenDialog({
      title: 'Import Claude Code Sessions',
      defaultUri: vscode.Uri.file(defaultFolder),
      canSelectMany: true,
      canSelectFolders: false,
      filters: { 'Claude Code transcripts': ['jsonl'] },
      openLabel: 'Import',
    });
    return picked?.map((uri) => uri.fsPath);
  }
}
