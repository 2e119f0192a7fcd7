// Language-model tools for agent mode. Both answer with an explanatory text (never throw) when
// the gate is closed; remember asks for confirmation showing exactly the episode to be stored.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { markStep } from '../status/walkthrough-progress.js';
import {
  cachedLabel,
  GroupIdResolver,
  isPromotionKind,
  LocalTier,
  Logger,
  MemoryConfiguration,
  MemoryGate,
  MemoryPromotion,
  RecallService,
  ReviewQueue,
  type MemoryScope,
  type PromotionScope,
} from '@graphiti-memory/memory-core';
import { formatFactLine, promotedEpisodeText } from '@graphiti-memory/prompt-elements';
import { gateExplanation } from '../chat/memory-participant.js';
import type { Contribution } from '../composition/tokens.js';
import { ContributionPoints } from '../entry/contribution-points.js';
import { promotionResult, REFUSALS } from '../memory/promotion-refusals.js';

export const SEARCH_TOOL = 'graphiti_memory_search';
export const REMEMBER_TOOL = 'graphiti_memory_remember';

export interface SearchToolInput {
  readonly query: string;
  readonly scopes?: readonly MemoryScope[];
  readonly maxFacts?: number;
}

export interface RememberToolInput {
  readonly kind: string;
  readonly scope: PromotionScope;
  readonly content: string;
}

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

const SCOPES: readonly MemoryScope[] = ['session', 'workspace', 'user'];

@injectable()
export class SearchMemoryTool implements vscode.LanguageModelTool<SearchToolInput> {
  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(RecallService) private readonly recall: RecallService,
    @inject(LocalTier) private readonly tier: LocalTier,
  ) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: 'Searching Graphiti memory' };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<SearchToolInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const decision = this.gate.evaluate();
    if (!decision.open) return textResult(`Graphiti memory is not available: ${gateExplanation(decision)} Answer without it.`);
    const query = typeof options.input.query === 'string' ? options.input.query.trim() : '';
    if (query === '') return textResult('Give a non-empty "query" to search memory.');
    const scopes = Array.isArray(options.input.scopes) ? options.input.scopes.filter((scope) => SCOPES.includes(scope)) : undefined;
    const maxFacts = typeof options.input.maxFacts === 'number' && options.input.maxFacts >= 1 ? Math.min(50, Math.floor(options.input.maxFacts)) : undefined;
    const abort = new AbortController();
    const cancellation = token.onCancellationRequested(() => abort.abort());
    try {
      const recalled = await this.recall.recall(query, {
        ...(scopes === undefined || scopes.length === 0 ? {} : { scopes }),
        ...(maxFacts === undefined ? {} : { maxFacts }),
        signal: abort.signal,
      });
      if (recalled.outcome === 'timeout' || recalled.outcome === 'error') {
        // The local tier answers, labelled as cached.
        const cached = await this.tier.cachedRecall(query, maxFacts === undefined ? {} : { maxFacts });
        if (cached === undefined) return textResult('Graphiti memory did not answer in time; answer without it.');
        return textResult(
          [`Facts from the local memory cache (${cachedLabel(cached.cachedAt, new Date())}; may be stale; the current code and the user's words win):`, ...cached.facts.map(formatFactLine)].join('\n'),
        );
      }
      if (recalled.skippedBecause === 'recall-disabled') {
        return textResult('Recall is turned off (setting graphitiMemory.recall.enabled), so memory was not searched. Answer without it.');
      }
      if (recalled.skippedBecause === 'recall-not-consented') {
        return textResult('The user has not agreed to send search queries to memory, so memory was not searched. Answer without it.');
      }
      if (recalled.facts.length === 0) return textResult('Graphiti memory holds no facts about this.');
      markStep('recalledMemory');
      return textResult(
        [
          `Facts from the user's long-term memory (may be stale; the current code and the user's words win):`,
          ...recalled.facts.map(formatFactLine),
        ].join('\n'),
      );
    } finally {
      cancellation.dispose();
    }
  }
}

@injectable()
export class RememberTool implements vscode.LanguageModelTool<RememberToolInput> {
  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(MemoryPromotion) private readonly promotion: MemoryPromotion,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(ReviewQueue) private readonly review: ReviewQueue,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RememberToolInput>): vscode.PreparedToolInvocation {
    const { kind, scope, content } = options.input;
    if (!this.gate.evaluate().open || !isPromotionKind(kind) || (scope !== 'workspace' && scope !== 'user')) {
      // Nothing will be stored: invoke explains why, so there is nothing to confirm.
      return { invocationMessage: 'Checking Graphiti memory' };
    }
    const episode = promotedEpisodeText({ kind, scope, text: String(content) });
    if (this.configuration.current().autoPromote.review) {
      // Review on: nothing is stored now, the memory waits for approval in the view, so no confirmation here.
      return { invocationMessage: `Proposing a ${kind} for your ${scope} memory (it waits for your review)` };
    }
    return {
      invocationMessage: `Remembering a ${kind} in ${scope} memory`,
      confirmationMessages: {
        title: `Remember this ${kind} in your ${scope} memory?`,
        message: new vscode.MarkdownString(`This will be stored in your Graphiti server:\n\n\`\`\`xml\n${episode}\n\`\`\``),
      },
    };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<RememberToolInput>): Promise<vscode.LanguageModelToolResult> {
    const decision = this.gate.evaluate();
    if (!decision.open) return textResult(`Nothing was stored: ${gateExplanation(decision)}`);
    const { kind, scope, content } = options.input;
    if (scope !== 'workspace' && scope !== 'user') return textResult('Nothing was stored: "scope" must be "workspace" or "user".');
    if (this.configuration.current().autoPromote.review) {
      const proposed = await this.review.propose({ kind: String(kind), scope, text: String(content ?? ''), source: 'remember-tool' });
      if (proposed.status === 'refused') return textResult(`Nothing was stored: ${REFUSALS[proposed.reason]}`);
      if (proposed.status === 'pending') {
        void vscode.commands.executeCommand('graphitiMemory.episodes.refresh');
        return textResult(
          `The ${String(kind)} waits for the user's review in "Pending memories" of the Graphiti Memory view; it is stored in ${scope} memory only once they approve it.`,
        );
      }
    }
    const request = { kind: String(kind), scope, text: String(content ?? '') };
    const outcome = promotionResult(await this.promotion.promote(request));
    return textResult(outcome.ok ? `Stored the ${String(kind)} in ${scope} memory (delivered in the background).` : `Nothing was stored: ${outcome.message}`);
  }
}

@injectable()
export class MemoryToolsContribution implements Contribution {
  constructor(
    @inject(SearchMemoryTool) private readonly search: SearchMemoryTool,
    @inject(RememberTool) private readonly remember: RememberTool,
    @inject(ContributionPoints) private readonly points: ContributionPoints,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(this.points.setTool(SEARCH_TOOL, this.search), this.points.setTool(REMEMBER_TOOL, this.remember));
  }
}
