// Promote to Memory: kind → scope → text (prefilled from the editor selection). An argument
// `{ kind, scope, text }` skips the dialogs for what it gives (automation and tests).
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { GroupIdResolver, Logger, MemoryGate, MemoryPromotion, PROMOTION_KINDS, type PromotionScope } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';
import { askTeamConsent } from '../consent/team-consent.js';
import { recordPromotionInTier } from '../memory/local-tier-updates.js';
import { promotionResult, type PromotionResult } from '../memory/promotion-refusals.js';

export const KIND_DESCRIPTIONS: Record<string, string> = {
  decision: 'Something settled: "we use zod for validation"',
  lesson_learned: 'What went wrong or right, to remember next time',
  preference: 'How you like things done',
  procedure: 'How to do something, step by step',
  task_update: 'Progress on ongoing work',
  terminology: 'What a word means here',
};

export const SCOPE_ITEMS: readonly { readonly label: PromotionScope; readonly description: string }[] = [
  { label: 'workspace', description: 'This project: every chat in this workspace can recall it' },
  { label: 'user', description: 'You: recalled in every workspace' },
  { label: 'team', description: 'Your team: anyone who uses this Graphiti server with this repository (asks first)' },
];

export interface PromoteArguments {
  readonly kind?: string;
  readonly scope?: PromotionScope;
  readonly text?: string;
}

export type PromoteResult = PromotionResult | { readonly ok: false; readonly reason: 'cancelled'; readonly message: string };

/** Asks for what `given` lacks: kind, then scope, then text. `undefined` when the user gave up. */
export async function askPromotion(given: PromoteArguments, prefill: string): Promise<{ kind: string; scope: PromotionScope; text: string } | undefined> {
  const kind =
    given.kind ??
    (
      await vscode.window.showQuickPick(
        PROMOTION_KINDS.map((label) => ({ label, description: KIND_DESCRIPTIONS[label] ?? '' })),
        { title: 'Promote to Memory (1/3): what kind of memory?' },
      )
    )?.label;
  if (kind === undefined) return undefined;
  const scope = given.scope ?? (await vscode.window.showQuickPick(SCOPE_ITEMS, { title: 'Promote to Memory (2/3): whose memory?' }))?.label;
  if (scope === undefined) return undefined;
  // The team scope is shared beyond this user: its own consent first, naming who can read it.
  if (scope === 'team' && !(await askTeamConsent())) return undefined;
  const text =
    given.text ??
    (await vscode.window.showInputBox({
      title: 'Promote to Memory (3/3): the memory, as one self-contained statement',
      value: prefill,
      validateInput: (value) => (value.trim() === '' ? 'Enter the text to remember.' : undefined),
    }));
  if (text === undefined || text.trim() === '') return undefined;
  return { kind, scope, text };
}

@injectable()
export class PromoteCommand implements Contribution {
  constructor(
    @inject(MemoryPromotion) private readonly promotion: MemoryPromotion,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(vscode.commands.registerCommand('graphitiMemory.promote', (argument?: unknown) => this.run(argument)));
  }

  async run(argument?: unknown): Promise<PromoteResult> {
    const given = isPromoteArguments(argument) ? argument : {};
    const editor = vscode.window.activeTextEditor;
    const prefill = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).trim() : '';
    const asked = await askPromotion(given, prefill);
    if (asked === undefined) return { ok: false, reason: 'cancelled', message: 'Nothing was promoted.' };
    const outcome = promotionResult(await this.promotion.promote(asked));
    if (outcome.ok) await recordPromotionInTier({ gate: this.gate, groups: this.groups, logger: this.logger }, asked, outcome);
    if (outcome.ok) void vscode.window.showInformationMessage(`Graphiti Memory: queued a ${asked.kind} for ${asked.scope} memory.`);
    else void vscode.window.showWarningMessage(`Graphiti Memory: ${outcome.message}`);
    return outcome;
  }
}

function isPromoteArguments(value: unknown): value is PromoteArguments {
  return typeof value === 'object' && value !== null && !('scheme' in value);
}
