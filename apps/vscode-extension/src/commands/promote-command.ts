// Promote to Memory: kind → scope → text (prefilled from the editor selection). An argument
// `{ kind, scope, text }` skips the dialogs for what it gives (automation and tests).
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { GroupIdResolver, Logger, MemoryConfiguration, MemoryGate, MemoryPromotion, PROMOTION_KINDS, type PromotionScope } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';
import { askTeamConsent } from '../consent/team-consent.js';
import { promotionResult, type PromotionResult } from '../memory/promotion-refusals.js';

export const KIND_DESCRIPTIONS: Record<string, string> = {
  decision: 'Something settled: "we use zod for validation"',
  lesson_learned: 'What went wrong or right, to remember next time',
  preference: 'How you like things done',
  procedure: 'How to do something, step by step',
  task_update: 'Progress on ongoing work',
  terminology: 'What a word means here',
};

/** Kinds by name, as people say them ("Lesson learned"); the id is what is sent. */
export const KIND_NAMES: Record<string, string> = {
  decision: 'Decision',
  lesson_learned: 'Lesson learned',
  preference: 'Preference',
  procedure: 'Procedure',
  task_update: 'Task update',
  terminology: 'Terminology',
};

/** The name of a promotion kind (its id when unknown). */
export function kindName(kind: string): string {
  return KIND_NAMES[kind] ?? kind;
}

export const SCOPE_ITEMS: readonly { readonly label: string; readonly scope: PromotionScope; readonly description: string }[] = [
  { label: 'This workspace', scope: 'workspace', description: 'This project: every chat in this workspace can recall it' },
  { label: 'You, in every workspace', scope: 'user', description: 'Your personal memory: recalled in every workspace' },
  { label: 'Your team', scope: 'team', description: 'Anyone who uses this Graphiti server with this repository (asks first)' },
];

export interface PromoteArguments {
  readonly kind?: string;
  readonly scope?: PromotionScope;
  readonly text?: string;
}

export type PromoteResult = PromotionResult | { readonly ok: false; readonly reason: 'cancelled'; readonly message: string };

/** Asks for what `given` lacks: kind, then scope, then text. `undefined` when the user gave up. */
export async function askPromotion(given: PromoteArguments, prefill: string, configuration: MemoryConfiguration): Promise<{ kind: string; scope: PromotionScope; text: string } | undefined> {
  const kind =
    given.kind ??
    (
      await vscode.window.showQuickPick(
        PROMOTION_KINDS.map((kind) => ({ label: kindName(kind), description: KIND_DESCRIPTIONS[kind] ?? '', id: kind })),
        { title: 'Promote to Memory (1/3): what kind of memory?' },
      )
    )?.id;
  if (kind === undefined) return undefined;
  const scope = given.scope ?? (await vscode.window.showQuickPick(SCOPE_ITEMS, { title: 'Promote to Memory (2/3): whose memory?' }))?.scope;
  if (scope === undefined) return undefined;
  // The team scope is shared beyond this user: its own consent first, naming who can read it.
  if (scope === 'team' && !(await askTeamConsent(configuration))) return undefined;
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
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(vscode.commands.registerCommand('graphitiMemory.promote', (argument?: unknown) => this.run(argument)));
  }

  async run(argument?: unknown): Promise<PromoteResult> {
    const given = isPromoteArguments(argument) ? argument : {};
    const editor = vscode.window.activeTextEditor;
    const prefill = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection).trim() : '';
    const asked = await askPromotion(given, prefill, this.configuration);
    if (asked === undefined) return { ok: false, reason: 'cancelled', message: 'Nothing was promoted.' };
    const outcome = promotionResult(await this.promotion.promote(asked));
    if (outcome.ok) {
      const where = asked.scope === 'user' ? 'your personal memory' : "this workspace's memory";
      void vscode.window.showInformationMessage(`Graphiti Memory: "${kindName(asked.kind)}" kept for ${where}; it is being sent to your server.`);
    }
    else void vscode.window.showWarningMessage(`Graphiti Memory: ${outcome.message}`);
    return outcome;
  }
}

function isPromoteArguments(value: unknown): value is PromoteArguments {
  return typeof value === 'object' && value !== null && !('scheme' in value);
}
