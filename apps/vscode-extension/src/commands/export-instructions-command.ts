// Export Memories to Instruction File: the workspace's curated memories into the generated section
// of AGENTS.md, CLAUDE.md or .github/copilot-instructions.md of the first workspace folder — the
// same section `graphiti-harness export` writes (memory-core's rendering and markers), so the two
// never fight over it. Only that section changes; a second export changes nothing.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { exportableMemories, lineEndingOf, LocalTier, renderInstructionSection, replaceInstructionSection, SecretGuard, type TierContent } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';

/** The files, as the harness's `--to` names them. */
export const INSTRUCTION_FILES: ReadonlyArray<{ readonly target: string; readonly file: string; readonly label: string }> = [
  { target: 'agents-md', file: 'AGENTS.md', label: 'AGENTS.md (Codex, Copilot and other agents)' },
  { target: 'claude-md', file: 'CLAUDE.md', label: 'CLAUDE.md (Claude Code)' },
  { target: 'copilot-instructions', file: path.join('.github', 'copilot-instructions.md'), label: '.github/copilot-instructions.md (Copilot)' },
];

export interface ExportOutcome {
  readonly ok: boolean;
  readonly message: string;
  readonly file?: string;
  readonly changed?: boolean;
}

@injectable()
export class ExportInstructionsCommand implements Contribution {
  constructor(
    @inject(LocalTier) private readonly tier: LocalTier,
    @inject(SecretGuard) private readonly guard: SecretGuard,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(vscode.commands.registerCommand('graphitiMemory.exportInstructions', (target?: unknown) => this.run(target)));
  }

  async run(target?: unknown): Promise<ExportOutcome> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (folder === undefined || folder.scheme !== 'file') return this.say({ ok: false, message: 'Graphiti Memory: open a folder first; memories are exported into its instruction file.' });
    const chosen = INSTRUCTION_FILES.find((entry) => entry.target === target) ?? (await this.pick());
    if (chosen === undefined) return { ok: false, message: 'Nothing was exported.' };
    let tier: TierContent | undefined;
    try {
      tier = await this.tier.refresh();
    } catch {
      // Graphiti did not answer: the local memory cache is what there is.
      tier = await this.tier.read();
    }
    const memories = await exportableMemories(tier, this.guard);
    const file = path.join(folder.fsPath, chosen.file);
    try {
      const existing = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
      const replaced = replaceInstructionSection(existing, renderInstructionSection(memories, lineEndingOf(existing)));
      if (!replaced.ok) return this.say({ ok: false, file, message: `Graphiti Memory: ${chosen.file}: ${replaced.problem}; nothing was written.` });
      if (replaced.text === existing) return this.say({ ok: true, file, changed: false, message: `Graphiti Memory: ${chosen.file} is already up to date (${memories.length} memories).` });
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(`${file}.graphiti-tmp`, replaced.text, 'utf8');
      await fs.rename(`${file}.graphiti-tmp`, file);
      return this.say({ ok: true, file, changed: true, message: `Graphiti Memory: wrote ${memories.length} memories into ${chosen.file}.` });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return this.say({ ok: false, file, message: `Graphiti Memory: cannot write ${chosen.file}${code === undefined ? '' : ` (${code})`}; it was left as it was. Check the folder is writable.` });
    }
  }

  private async pick(): Promise<(typeof INSTRUCTION_FILES)[number] | undefined> {
    const picked = await vscode.window.showQuickPick(
      INSTRUCTION_FILES.map((entry) => ({ label: entry.label, entry })),
      { title: 'Graphiti Memory: export memories into which file?', placeHolder: 'Only the generated section between the graphiti-memory markers is written' },
    );
    return picked?.entry;
  }

  private say(outcome: ExportOutcome): ExportOutcome {
    if (outcome.ok) void vscode.window.showInformationMessage(outcome.message);
    else void vscode.window.showWarningMessage(outcome.message);
    return outcome;
  }
}
