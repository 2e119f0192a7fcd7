// `@memory`: recall under its deadline (fail-open) → the prompt (prompt-tsx) → the model the user
// picked → streamed answer with how many facts were used → the finished turn enqueued. Slash
// commands /remember, /recall, /forget, /status. A Graphiti outage never fails the turn.
// Say it once: a session's recall gives only facts its earlier turns did not (ChatSessionFacts).
import { randomUUID } from 'node:crypto';
import { renderPrompt } from '@vscode/prompt-tsx';
import { inject, injectable, optional } from 'inversify';
import * as vscode from 'vscode';
import {
  cachedLabel,
  describeLoop,
  errorClassOf,
  filterTurn,
  GroupIdResolver,
  Ingestion,
  LocalTier,
  Logger,
  LoopService,
  MemoryConfiguration,
  MemoryGate,
  MemoryPromotion,
  RecallService,
  resolveTranscriptFilter,
  type CachedRecall,
  type GateDecision,
} from '@graphiti-memory/memory-core';
import { factLineSuffix, formatFactLine, sanitiseFactText } from '@graphiti-memory/prompt-elements';
import { askPromotion } from '../commands/promote-command.js';
import type { Contribution } from '../composition/tokens.js';
import { ContributionPoints } from '../entry/contribution-points.js';
import { promotionResult } from '../memory/promotion-refusals.js';
import { MemoryStatus } from '../status/memory-status.js';
import { nextStep } from '../status/status-menu-items.js';
import { markStep } from '../status/walkthrough-progress.js';
import { factDates } from '../episodes/memory-tree.js';
import { kindWords, scopeWords } from '../episodes/memory-text.js';
import { ChatSessionFacts } from './chat-session-facts.js';
import { factLine, historyMessages, isMemoryMetadata, memoryFooter, sessionIdOf, type MemoryResultMetadata } from './chat-history.js';
import { RecalledFactDocuments } from './fact-references.js';
import { MemoryChatPrompt } from './memory-prompt.js';
import { parseRememberArguments } from './remember-arguments.js';

export const PARTICIPANT_ID = 'graphiti-memory.memory';
/** Set once `@memory` answered in this window: completes the walkthrough's "Ask @memory" step. */
export const ASKED_CONTEXT = 'graphitiMemory.askedMemory';

/** The last question of the conversation (for a result whose metadata predates `question`). */
function lastQuestion(context: vscode.ChatContext | undefined): string | undefined {
  const history = context?.history ?? [];
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const turn = history[index];
    if (turn instanceof vscode.ChatRequestTurn && turn.command === undefined) return turn.prompt;
  }
  return undefined;
}

/** `/recall` while `recall.enabled` is off (the default): why nothing is looked up, and how to change it. */
export const RECALL_OFF_ANSWER =
  'Recall is off, so memory looks nothing up: what you promote is stored, but not used in answers. Turn recall on to let `@memory` (and `/recall`) search what memory holds; your questions are then sent to your Graphiti server as searches.';
/** The `@memory` footer while recall is off; matched (and dropped from history) by chat-history's footer pattern. */
export const RECALL_OFF_FOOTER = '\n\n---\n_Memory recall is off: answered without looking anything up._';

/** A model failure in user words: no model at all is its own case, with the way out. */
export function modelFailure(error: unknown): string {
  const code = error instanceof vscode.LanguageModelError ? error.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'NotFound' || /unavailable|not found|no model/i.test(message)) {
    return '@memory needs a chat model and none is available. Sign in to GitHub Copilot, or pick another model in the chat view\'s model picker, then ask again.';
  }
  if (code === 'NoPermissions') {
    return '@memory may not use the chosen chat model: allow Graphiti Memory to use it when VS Code asks, or pick another model.';
  }
  return `The chat model could not answer (${message}). Try again, or pick another model.`;
}

export function gateExplanation(decision: GateDecision): string {
  if (decision.open) return 'Memory is on.';
  switch (decision.reason) {
    case 'disabled':
      return 'Memory is off in this workspace.';
    case 'untrusted':
      return 'Memory is off because this workspace is not trusted.';
    case 'invalid-settings':
      return 'Memory is off because a setting is invalid (see "Graphiti Memory: Show Status").';
    case 'no-endpoint':
      return 'Memory is off: no Graphiti endpoint is set.';
    case 'no-consent':
    case 'consent-for-other-endpoint':
      return 'Memory is enabled but waits for your consent.';
    case 'category-not-consented':
      return 'Memory is on, but you have not agreed to send this kind of data.';
  }
}

@injectable()
export class MemoryParticipant implements Contribution {
  #asked = false;
  /** Chat sessions told this workspace's open loops already: each is told once. */
  readonly #loopsSaid = new Set<string>();

  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(RecallService) private readonly recall: RecallService,
    @inject(MemoryPromotion) private readonly promotion: MemoryPromotion,
    @inject(Ingestion) private readonly ingestion: Ingestion,
    @inject(MemoryStatus) private readonly status: MemoryStatus,
    @inject(Logger) private readonly logger: Logger,
    @inject(ContributionPoints) private readonly points: ContributionPoints,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(ChatSessionFacts) private readonly sessionFacts: ChatSessionFacts,
    @inject(RecalledFactDocuments) private readonly factDocuments: RecalledFactDocuments,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(LocalTier) private readonly tier: LocalTier,
    @inject(LoopService) @optional() private readonly loops?: LoopService,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      this.points.setChatParticipant(PARTICIPANT_ID, {
        handle: (request, chatContext, stream, token) => this.handle(request, chatContext, stream, token),
        followups: (result, chatContext) => this.followups(result, chatContext),
      }),
    );
  }

  /** The workspace's open loops (newest and most salient first, a few at most), once per chat session; '' when none or already said. */
  private async openLoops(sessionId: string): Promise<string> {
    if (this.loops === undefined || this.#loopsSaid.has(sessionId)) return '';
    const nudges = await this.loops.nudges().catch(() => undefined);
    if (nudges === undefined || nudges.nudged.length === 0) return '';
    this.#loopsSaid.add(sessionId);
    const now = new Date();
    const lines = nudges.nudged.map((loop) => `- ${sanitiseFactText(loop.text)} (${describeLoop(loop, now, nudges.expireDays)})`);
    const more = nudges.more > 0 ? `\n\n_${nudges.more} more: run \`graphiti-harness loops list\`._` : '';
    return `\n\n**Open loops in this workspace:**\n\n${lines.join('\n')}${more}`;
  }

  async handle(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const sessionId = sessionIdOf(context);
    try {
      switch (request.command) {
        case 'remember':
          return await this.remember(request, stream, sessionId);
        case 'recall':
          return await this.showRecall(request, stream, sessionId, token);
        case 'forget':
          return this.forget(stream, sessionId);
        case 'status':
          return this.showStatus(stream, sessionId);
        default:
          return await this.answer(request, context, stream, token, sessionId);
      }
    } catch (error) {
      // Only the model can fail a turn; anything of memory's is logged and the turn still ends.
      this.logger.error('chat request failed', { command: request.command, errorClass: errorClassOf(error) });
      const message = error instanceof Error ? error.message : String(error);
      return { errorDetails: { message: `The request failed: ${message}` }, metadata: { sessionId, command: request.command } };
    }
  }

  private async answer(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
    sessionId: string,
  ): Promise<vscode.ChatResult> {
    const userTimestamp = new Date().toISOString();
    const startedAt = Date.now();
    const decision = this.gate.evaluate();
    // Memory off (Disable, a revoked consent, a settings edit): nothing any chat was given stays in its prompts.
    if (!decision.open) await this.sessionFacts.withdraw({ at: startedAt }).catch(() => undefined);
    const abort = new AbortController();
    const cancellation = token.onCancellationRequested(() => abort.abort());
    try {
      const recalled = decision.open
        ? await this.recall.recall(request.prompt, { sessionId, signal: abort.signal })
        : { facts: [], outcome: 'skipped' as const, skippedBecause: 'gate-closed' as const };
      if (token.isCancellationRequested) return { metadata: { sessionId } };
      // Graphiti down or past the deadline: the local tier answers, labelled as cached.
      const cached = recalled.outcome === 'timeout' || recalled.outcome === 'error' ? await this.tier.cachedRecall(request.prompt, { sessionId }) : undefined;
      const available = cached?.facts ?? recalled.facts;
      // Memory of a chat session is kept for its chat: the facts given earlier stay in the prompt once.
      const facts = await this.sessionFacts.notYetGiven(sessionId, available).catch(() => [...available]);
      // A fact given again because it changed replaces its earlier version.
      const earlierFacts = this.sessionFacts.givenEarlier(sessionId).filter((earlier) => !facts.some((fact) => fact.uuid === earlier.uuid));
      const { messages } = await renderPrompt(
        MemoryChatPrompt,
        { facts, earlierFacts, history: historyMessages(context, this.sessionFacts.withdrawnAt()), request: request.prompt },
        { modelMaxPromptTokens: request.model.maxInputTokens },
        request.model,
        undefined,
        token,
      );
      // Only what the budget let into the prompt was given.
      const sent = promptText(messages);
      const given = facts.filter((fact) => sent.includes(sanitiseFactText(fact.fact)));
      await this.sessionFacts.given(sessionId, given, startedAt).catch(() => undefined);
      const memoryGiven = given.length > 0 || earlierFacts.some((fact) => sent.includes(sanitiseFactText(fact.fact)));
      let answer = '';
      try {
        const response = await request.model.sendRequest(messages, {}, token);
        for await (const fragment of response.text) {
          if (token.isCancellationRequested) break;
          answer += fragment;
          stream.markdown(fragment);
        }
      } catch (error) {
        // Whatever the model's request throws is the model's failure (VS Code's "Language model unavailable" included).
        if (token.isCancellationRequested) return { metadata: { sessionId, ...(memoryGiven ? { memoryGivenAt: startedAt } : {}) } };
        this.logger.warn('model request failed', { code: error instanceof vscode.LanguageModelError ? error.code : errorClassOf(error) });
        return { errorDetails: { message: modelFailure(error) }, metadata: { sessionId } };
      }
      const recallOff = decision.open && recalled.outcome === 'skipped' && recalled.skippedBecause === 'recall-disabled';
      // The facts used, each a reference (listed under "Used N references", with its date).
      for (const fact of facts) stream.reference(this.factDocuments.uriOf(fact));
      const footer = recallOff
        ? RECALL_OFF_FOOTER
        : memoryFooter(
            facts.map((fact) => factLine(sanitiseFactText(fact.fact), factDates(fact), fact.scope, factLineSuffix(fact))),
            recalled.outcome,
            cached === undefined ? undefined : cachedLabel(cached.cachedAt, new Date()),
          );
      if (footer !== '') stream.markdown(footer);
      if (decision.open) stream.markdown(await this.openLoops(sessionId));
      if (recallOff) stream.button({ command: 'graphitiMemory.enableRecall', title: 'Turn Recall On' });
      if (given.length > 0) markStep('recalledMemory');
      if (!this.#asked) {
        this.#asked = true;
        void vscode.commands.executeCommand('setContext', ASKED_CONTEXT, true);
      }
      // Said whenever memory is off, so an answer never reads as one that had memory.
      if (!decision.open) stream.markdown(`\n\n---\n_${gateExplanation(decision)}_`);
      if (token.isCancellationRequested || answer.trim() === '') return { metadata: { sessionId, ...(memoryGiven ? { memoryGivenAt: startedAt } : {}) } };
      // No parser reads this turn: it is kept as the configured filter keeps a transcript's (code in the answer summarised by default).
      const turn = {
        id: `memory-${randomUUID()}`,
        sessionId,
        user: { text: request.prompt, timestamp: userTimestamp },
        assistant: { text: answer, timestamp: new Date().toISOString() },
        participant: PARTICIPANT_ID,
      };
      this.ingestion.enqueue(filterTurn(turn, resolveTranscriptFilter(this.configuration.current().filter)));
      // The question comes back to `followups`, which recalls for it ("Show what memory recalls").
      const metadata: MemoryResultMetadata = {
        sessionId,
        factsUsed: facts.length,
        gateOpen: decision.open,
        question: request.prompt,
        ...(memoryGiven ? { memoryGivenAt: startedAt } : {}),
      };
      return { metadata };
    } finally {
      cancellation.dispose();
    }
  }

  private async remember(request: vscode.ChatRequest, stream: vscode.ChatResponseStream, sessionId: string): Promise<vscode.ChatResult> {
    const metadata = { sessionId, command: 'remember' };
    const decision = this.gate.evaluate();
    if (!decision.open) {
      stream.markdown(`${gateExplanation(decision)} Nothing was stored.`);
      stream.button({ command: 'graphitiMemory.enable', title: 'Enable Graphiti Memory' });
      return { metadata };
    }
    const { text, ...kindAndScope } = parseRememberArguments(request.prompt);
    // What the prompt did not say is asked for; an empty text opens the input box.
    const asked = await askPromotion(text === '' ? kindAndScope : { ...kindAndScope, text }, '', this.configuration);
    if (asked === undefined) {
      stream.markdown('Nothing was stored. Usage: `/remember [decision|lesson_learned|preference|procedure|task_update|terminology] [workspace|user] text`');
      return { metadata };
    }
    const outcome = promotionResult(await this.promotion.promote(asked));
    if (!outcome.ok) {
      stream.markdown(outcome.message);
      return { metadata };
    }
    // In words: never the stored `<graphiti_episode>` block.
    stream.markdown(`Saved to ${scopeWords(asked.scope)} as a ${kindWords(asked.kind).toLowerCase()}: “${asked.text}” It is on its way to your Graphiti server.`);
    return { metadata };
  }

  private async showRecall(
    request: vscode.ChatRequest,
    stream: vscode.ChatResponseStream,
    sessionId: string,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const metadata = { sessionId, command: 'recall' };
    const decision = this.gate.evaluate();
    if (!decision.open) {
      stream.markdown(`${gateExplanation(decision)} Nothing can be recalled.`);
      return { metadata };
    }
    if (request.prompt.trim() === '') {
      stream.markdown('Ask what to recall, e.g. `/recall how do we deploy?`');
      return { metadata };
    }
    if (!this.status.snapshot().recallEnabled) {
      stream.markdown(RECALL_OFF_ANSWER);
      stream.button({ command: 'graphitiMemory.enableRecall', title: 'Turn Recall On' });
      return { metadata: { ...metadata, recallOff: true } };
    }
    const abort = new AbortController();
    const cancellation = token.onCancellationRequested(() => abort.abort());
    try {
      const recalled = await this.recall.recall(request.prompt, { sessionId, signal: abort.signal });
      let cached: CachedRecall | undefined;
      if (recalled.outcome === 'skipped' && recalled.skippedBecause === 'recall-not-consented') {
        stream.markdown('Recall is on, but you have not agreed to send your questions as searches, so nothing was looked up.');
        stream.button({ command: 'graphitiMemory.enable', title: 'Review and Consent' });
      } else if ((recalled.outcome === 'timeout' || recalled.outcome === 'error') && (cached = await this.tier.cachedRecall(request.prompt, { sessionId })) !== undefined) {
        const label = cachedLabel(cached.cachedAt, new Date());
        stream.markdown(`From the local memory cache (${label}), ${cached.facts.length} fact${cached.facts.length === 1 ? '' : 's'}:\n\n${cached.facts.map(formatFactLine).join('\n')}`);
        for (const fact of cached.facts) stream.reference(this.factDocuments.uriOf(fact));
      } else if (recalled.outcome === 'timeout') {
        stream.markdown('Memory did not answer in time. Try again, or run "Graphiti Memory: Test Connection".');
      } else if (recalled.outcome === 'error') {
        stream.markdown('Memory could not reach Graphiti. Try again, or run "Graphiti Memory: Test Connection".');
      } else if (recalled.facts.length === 0) {
        stream.markdown('Memory holds no facts about that yet.');
      } else {
        stream.markdown(`Graphiti memory recalls ${recalled.facts.length} fact${recalled.facts.length === 1 ? '' : 's'}:\n\n${recalled.facts.map(formatFactLine).join('\n')}`);
        for (const fact of recalled.facts) stream.reference(this.factDocuments.uriOf(fact));
      }
      if ((cached?.facts.length ?? recalled.facts.length) > 0) markStep('recalledMemory');
      return { metadata: { ...metadata, factsUsed: cached?.facts.length ?? recalled.facts.length } };
    } finally {
      cancellation.dispose();
    }
  }

  private forget(stream: vscode.ChatResponseStream, sessionId: string): vscode.ChatResult {
    stream.markdown('Forgetting deletes every episode and fact of this workspace from your Graphiti server. You will be asked to confirm.');
    stream.button({ command: 'graphitiMemory.forgetWorkspace', title: 'Forget Workspace Memory…' });
    return { metadata: { sessionId, command: 'forget' } };
  }

  private showStatus(stream: vscode.ChatResponseStream, sessionId: string): vscode.ChatResult {
    const snapshot = this.status.refresh();
    stream.markdown(`**Graphiti Memory:** ${snapshot.summary}`);
    // The same next step as Show Status and the status menu.
    const next = nextStep(snapshot);
    if (next !== undefined) stream.button({ command: next.command, title: next.title });
    stream.button({ command: 'graphitiMemory.testConnection', title: 'Test Connection' });
    return { metadata: { sessionId, command: 'status' } };
  }

  followups(result: vscode.ChatResult, context?: vscode.ChatContext): vscode.ChatFollowup[] {
    const metadata = isMemoryMetadata(result.metadata) ? result.metadata : undefined;
    if (metadata === undefined || result.errorDetails !== undefined) return [];
    if (metadata.command === undefined && metadata.gateOpen === true) {
      const question = metadata.question ?? lastQuestion(context);
      if (question === undefined || question.trim() === '') return [];
      return [{ prompt: question, command: 'recall', label: 'Show what memory recalls' }];
    }
    if (metadata.command === 'recall') return [{ prompt: '', command: 'remember', label: 'Remember something new' }];
    return [];
  }
}

/** The text of the prompt's messages (the language-model API's text parts). */
function promptText(messages: readonly vscode.LanguageModelChatMessage[]): string {
  return messages
    .map((message) => message.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join(''))
    .join('\n');
}
