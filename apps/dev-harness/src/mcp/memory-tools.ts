// What each MCP tool does, through the services the harness's commands use (memory-core's recall,
// review queue, promotion and forget, opened by `openHarnessMemory`): no memory rule lives here.
// Every answer is a normal tool result — a closed gate, Graphiti down or a refusal is said in words
// the model can act on, never a protocol error — and carries no raw group id: the model sees
// scopes, counts, episode uuids (what a citation names) and pending ids, as the CLI prints them.
import { stopHookProcesses } from '@graphiti-memory/agent-hooks';
import {
  cachedLabel,
  describeLoopProposalMiss,
  FORGOTTEN_PENDING_REASON,
  parseDirectives,
  sanitiseReadableLine,
  sourceForgetSummary,
  type ForgetRequest,
  type MemoryScope,
  type PendingMemory,
  type PromotionKind,
  type PromotionRefusal,
  type RecalledFact,
} from '@graphiti-memory/memory-core';
import { formatFactLine, sanitiseFactText } from '@graphiti-memory/prompt-elements';
import { openHarnessMemory, type HarnessMemory } from '../composition/harness-container.js';
import { waitForDelivery } from '../delivery/wait-for-delivery.js';
import { factJson } from '../commands/recall-command.js';
import type { McpAccess } from './mcp-access.js';

/** What a tool answers: text for the model, the same as JSON for programs. */
export interface ToolAnswer {
  readonly text: string;
  readonly data: Record<string, unknown>;
  /** A failure the model should see as one (Graphiti refused, nothing found); never for a closed gate. */
  readonly isError?: boolean;
}

/**
 * How long a write waits until Graphiti confirmed it stored (which also records its source, for
 * citations and forget); what is not confirmed by then stays in the durable outbox, and the next
 * drain of any tool sends or confirms it.
 */
const SEND_WAIT_MS = 10_000;

const REFUSALS: Readonly<Record<PromotionRefusal, string>> = {
  'gate-closed': 'memory is off or waits for consent for this workspace, so nothing was stored',
  secret: 'the text looks like it holds a secret (a key, token or password), so nothing was stored or sent; remove the secret and try again',
  'invalid-kind': 'unknown kind of memory: use decision, lesson_learned, preference, procedure, task_update or terminology',
  empty: 'there is nothing to remember: the text is empty',
  'no-scope': 'the memory group of that scope is not known here (the team scope needs a git remote and `graphiti-harness team enable`)',
  'team-not-consented': 'the team scope is not enabled (what is shared there is read by everyone using this Graphiti server with this repository); the user enables it with `graphiti-harness team enable`',
};

const notSetUp = (access: Extract<McpAccess, { ok: false }>): ToolAnswer => ({ text: access.message, data: { ok: false, setUp: false, reason: access.reason } });

export interface RecallInput {
  readonly query: string;
  readonly scopes?: readonly MemoryScope[] | undefined;
  readonly maxFacts?: number | undefined;
}

export async function recallTool(access: McpAccess, input: RecallInput): Promise<ToolAnswer> {
  if (!access.ok) return notSetUp(access);
  const maxFacts = input.maxFacts ?? 10;
  // Graphiti down: the local tier answers, labelled as cached (the preflight's failure is kept).
  const memory = await openHarnessMemory(access.context, { maxFacts, needs: {}, preflight: 'soft', consent: access.consent });
  const result = await memory.recall.recall(input.query, { ...(input.scopes === undefined || input.scopes.length === 0 ? {} : { scopes: input.scopes }), maxFacts });
  if (result.skippedBecause === 'recall-disabled') {
    return { text: 'Recall is turned off in the configuration (recall.enabled), so memory was not searched. Answer without it.', data: { ok: false, reason: 'recall-disabled', facts: [] } };
  }
  if (result.skippedBecause !== undefined && result.outcome === 'skipped') {
    return { text: `Memory was not searched (${result.skippedBecause}). Answer without it.`, data: { ok: false, reason: result.skippedBecause, facts: [] } };
  }
  const missed = result.timedOut || (result.errors.length > 0 && result.errors.length >= result.scopes.length);
  const cached = missed && result.facts.length === 0 ? await memory.tier.cachedRecall(input.query, { maxFacts }) : undefined;
  const facts = cached?.facts ?? result.facts;
  const label = cached === undefined ? undefined : cachedLabel(cached.cachedAt, new Date());
  const data = { ok: true, facts: facts.map(factData), cached: label === undefined ? null : { label }, timedOut: result.timedOut, scopes: result.scopes };
  if (facts.length === 0) {
    const text = missed ? 'Graphiti memory did not answer in time and nothing is cached for this; answer without it.' : 'Memory holds no facts about this.';
    return { text, data: { ...data, ok: !missed } };
  }
  const header =
    label === undefined
      ? "Facts from the user's long-term memory (may be stale; the current code and the user's words win). Each cites its source when known; sources[].episode in the JSON is what memory_forget takes:"
      : `Facts from the local memory cache (${label}; Graphiti did not answer; may be stale):`;
  return { text: [header, ...facts.map(factLine)].join('\n'), data };
}

/** A fact as `recall --json` gives it, without what names a group. */
function factData(fact: RecalledFact): Record<string, unknown> {
  // Recalled text is data: no control characters, nothing that could close a block.
  return { ...factJson(fact), fact: sanitiseFactText(fact.fact) };
}

/** The rendered line (sanitised, cited, stale-marked) with the uuid of the source a forget takes. */
function factLine(fact: RecalledFact): string {
  const episode = fact.sources?.[0]?.episode;
  return episode === undefined ? formatFactLine(fact) : `${formatFactLine(fact)} [source ${sanitiseReadableLine(episode)}]`;
}

export interface RememberInput {
  readonly text: string;
  readonly kind: PromotionKind;
  readonly scope: 'workspace' | 'user' | 'team';
}

/**
 * The assistant's remember (issue 30): plain text is promoted as `graphiti-harness promote` does
 * it (gate, secret guard, scopes, team consent, local tier). Directive lines in the text
 * (`decision: …`) are each proposed as the directive they are, with their own kind and scope,
 * through the review queue as directives in a chat are: held for the user's review while
 * `autoPromote.review` is on (the default).
 */
export async function rememberTool(access: McpAccess, input: RememberInput): Promise<ToolAnswer> {
  if (!access.ok) return notSetUp(access);
  const memory = await openHarnessMemory(access.context, { preflight: false, consent: access.consent });
  const directives = parseDirectives(input.text);
  const proposals =
    directives.length > 0
      ? directives.map((directive) => ({ kind: directive.kind, scope: directive.scope, text: directive.text, source: 'directive' as const }))
      : [{ kind: input.kind, scope: input.scope, text: input.text, source: 'remember-tool' as const }];
  const outcomes: Array<Record<string, unknown>> = [];
  const lines: string[] = [];
  let sent = 0;
  memory.ingestion.start();
  for (const proposal of proposals) {
    const outcome = proposal.source === 'directive' ? await memory.review.propose(proposal) : await promoted(memory, proposal);
    if (outcome.status === 'refused') {
      outcomes.push({ status: 'refused', kind: proposal.kind, scope: proposal.scope, reason: outcome.reason });
      lines.push(`Not stored (${proposal.kind}, ${proposal.scope}): ${REFUSALS[outcome.reason]}.`);
    } else if (outcome.status === 'pending') {
      outcomes.push({ status: 'held-for-review', kind: proposal.kind, scope: proposal.scope, id: outcome.memory.id, alreadyPending: outcome.alreadyPending });
      lines.push(
        `Held for the user's review (${proposal.kind}, ${proposal.scope}; pending id ${outcome.memory.id}): it is stored only once the user approves it (memory_pending, \`graphiti-harness pending approve ${outcome.memory.id}\`, or the VS Code view).`,
      );
    } else {
      sent += 1;
      outcomes.push({ status: 'promoted', kind: proposal.kind, scope: proposal.scope });
      lines.push(`Remembered as a ${proposal.kind} in the ${proposal.scope} scope.`);
    }
  }
  const delivery = sent > 0 ? await settleWrites(memory, access) : undefined;
  await memory.close();
  if (delivery === false) lines.push('Graphiti has not confirmed it stored yet: it is kept on this machine and the next drain sends or confirms it.');
  const refused = outcomes.every((outcome) => outcome.status === 'refused');
  return { text: lines.join('\n'), data: { ok: !refused, outcomes, ...(delivery === undefined ? {} : { stored: delivery }) }, isError: refused };
}

/** Plain text: promoted at once, as `promote` does (the same refusals as a proposal). */
async function promoted(memory: HarnessMemory, proposal: { readonly kind: PromotionKind; readonly scope: RememberInput['scope']; readonly text: string }): Promise<{ readonly status: 'refused'; readonly reason: PromotionRefusal } | { readonly status: 'promoted' }> {
  const plan = await memory.memoryPromotion.promote({ kind: proposal.kind, scope: proposal.scope, text: proposal.text });
  return plan.ok ? { status: 'promoted' } : { status: 'refused', reason: plan.reason };
}

/** Waits (bounded) until Graphiti confirmed what was queued; false when it did not in time. */
async function settleWrites(memory: HarnessMemory, access: Extract<McpAccess, { ok: true }>): Promise<boolean> {
  const outcome = await waitForDelivery(memory.ingestion, { until: 'confirmed', timeoutMs: SEND_WAIT_MS, output: access.context.output, terminal: access.context.terminal });
  return outcome.complete;
}

export interface ForgetInput {
  readonly episode?: string | undefined;
  readonly session?: string | undefined;
  readonly scope?: 'workspace' | 'user' | 'team' | undefined;
}

/**
 * `forget` of one source (an episode uuid a citation names), one session (a citation's session) or
 * one scope (the team scope: only what this user wrote there). Never every group, never another
 * user's: only the groups this machine's registry and delivery ledger know are touched.
 */
export async function forgetTool(access: McpAccess, input: ForgetInput): Promise<ToolAnswer> {
  const given = [input.episode, input.session, input.scope].filter((value) => value !== undefined);
  if (given.length !== 1) {
    return { text: 'Give exactly one of "episode" (a source uuid from memory_recall), "session" (a cited session id) or "scope" (workspace, user or team).', data: { ok: false, reason: 'bad-input' }, isError: true };
  }
  if (!access.ok) return notSetUp(access);
  const { options } = access.context;
  if (input.episode !== undefined) {
    const episode = input.episode.trim();
    if (!/^[\w-]{1,100}$/.test(episode)) return { text: 'The episode must be the uuid memory_recall lists as a source.', data: { ok: false, reason: 'bad-input' }, isError: true };
    const memory = await openHarnessMemory(access.context, { preflight: false, consent: access.consent });
    try {
      // Only a source this machine delivered: its groups are the user's own (no group is ever taken from the model).
      if ((await memory.episodeSources.find([episode])).get(episode) === undefined) {
        return { text: 'That source was not delivered from this machine, so this tool cannot forget it (it forgets only what this user stored from here).', data: { ok: false, episode, reason: 'unknown-source' }, isError: true };
      }
      const result = await memory.forget.forgetSource(episode, { callOptions: { timeoutMs: options.timeoutMs } });
      return {
        text: `Forgotten: ${sourceForgetSummary(result)}`,
        data: { ok: true, episode, face: result.face, deletedEpisodes: result.episodes.length, deletedFacts: result.deletedFacts?.length ?? null, keptFacts: result.keptFacts, unknownFacts: result.unknownFacts },
      };
    } finally {
      await memory.close();
    }
  }
  const request: ForgetRequest = input.session !== undefined ? { scope: 'session', sessionId: input.session } : input.scope === 'team' ? { scope: 'team', allAuthors: false } : { scope: input.scope ?? 'workspace' };
  const what = input.session !== undefined ? 'that session' : `the ${input.scope} scope${input.scope === 'team' ? ' (only what this user wrote there)' : input.scope === 'workspace' ? ' with all its sessions' : ''}`;
  const memory = await openHarnessMemory(access.context, { preflight: false, consent: access.consent });
  try {
    const targets = await memory.forget.plan(request);
    if (targets.length === 0) return { text: `Nothing to forget: no memory of ${what} is known on this machine.`, data: { ok: true, deletedGroups: 0, dequeued: 0, droppedPending: 0 } };
    // The drainer lets go of what it holds first, so nothing queued for those groups is sent after the delete.
    await stopHookProcesses(access.context.terminal.env, options.stateDir);
    const result = await memory.forget.forget(request, { timeoutMs: options.timeoutMs, maxRetries: 0 });
    const owed = result.owed.length;
    const lines = [
      result.deletedEpisodes === undefined
        ? `Forgotten: ${what} (${result.deletedGroups.length} memory groups deleted).`
        : `Forgotten: ${result.deletedEpisodes} of the user's episodes in the team scope.`,
    ];
    if (result.dequeued > 0) lines.push(`${result.dequeued} queued messages were dropped before they were sent.`);
    if (result.droppedPending > 0) lines.push(`${result.droppedPending} pending memories of it were dropped.`);
    if (owed > 0) lines.push(`Graphiti did not answer for ${owed} groups: they are deleted when it is back (nothing more is sent to them).`);
    return {
      text: lines.join('\n'),
      data: {
        ok: result.failed.every((failure) => result.owed.includes(failure.groupId)),
        deletedGroups: result.deletedGroups.length,
        ...(result.deletedEpisodes === undefined ? {} : { deletedEpisodes: result.deletedEpisodes }),
        dequeued: result.dequeued,
        droppedPending: result.droppedPending,
        owed,
        failed: result.failed.length,
      },
    };
  } finally {
    await memory.close();
  }
}

export interface PendingInput {
  readonly action: 'list' | 'approve' | 'reject';
  readonly id?: string | undefined;
  readonly text?: string | undefined;
}

/** The review queue, as `graphiti-harness pending` works it. */
export async function pendingTool(access: McpAccess, input: PendingInput): Promise<ToolAnswer> {
  if (input.action !== 'list' && (input.id === undefined || input.id.trim() === '')) {
    return { text: `"${input.action}" needs the "id" that the list shows.`, data: { ok: false, reason: 'bad-input' }, isError: true };
  }
  if (!access.ok) return notSetUp(access);
  const memory = await openHarnessMemory(access.context, { preflight: false, consent: access.consent });
  try {
    if (input.action === 'list') {
      const pending = await memory.review.list();
      return {
        text: pending.length === 0 ? 'No memories wait for review.' : ['Memories waiting for the user\'s review:', ...pending.map(pendingLine)].join('\n'),
        data: { ok: true, pending: pending.map(pendingData) },
      };
    }
    const id = (input.id ?? '').trim();
    if (input.action === 'reject') {
      const outcome = await memory.review.reject(id);
      if (outcome.status === 'not-found') return notFound(id);
      return { text: `Rejected ${sanitiseReadableLine(id)}: nothing was sent.`, data: { ok: true, id, rejected: true } };
    }
    memory.ingestion.start();
    const outcome = await memory.review.approve(id, input.text === undefined ? {} : { text: input.text });
    if (outcome.status === 'not-found' || outcome.status === 'rejected') return notFound(id);
    if (outcome.status === 'forgotten') return { text: `Not approved: ${FORGOTTEN_PENDING_REASON}.`, data: { ok: false, id, reason: 'forgotten' }, isError: true };
    if (outcome.status === 'refused') return { text: `Not approved (it stays pending): ${REFUSALS[outcome.reason]}.`, data: { ok: false, id, reason: outcome.reason }, isError: true };
    if (outcome.status === 'not-applied') return { text: `Not approved: ${describeLoopProposalMiss(outcome.reason)}.`, data: { ok: false, id, reason: outcome.reason }, isError: true };
    const accepted = await settleWrites(memory, access);
    return {
      text: `Approved and remembered as a ${outcome.memory.kind} in the ${outcome.memory.scope} scope.${accepted ? '' : ' Graphiti has not confirmed it stored yet: it is kept on this machine and the next drain sends or confirms it.'}`,
      data: { ok: true, id, kind: outcome.memory.kind, scope: outcome.memory.scope, stored: accepted },
    };
  } finally {
    await memory.close();
  }
}

function notFound(id: string): ToolAnswer {
  return { text: `No pending memory has the id ${JSON.stringify(sanitiseReadableLine(id))}; list them with action "list".`, data: { ok: false, id, reason: 'not-found' }, isError: true };
}

/** A pending memory without its groups. */
function pendingData(memory: PendingMemory): Record<string, unknown> {
  return { id: memory.id, kind: memory.kind, scope: memory.scope, text: sanitiseReadableLine(memory.text), source: memory.source, createdAt: new Date(memory.createdAt).toISOString() };
}

function pendingLine(memory: PendingMemory): string {
  const from = memory.source === 'directive' ? 'a directive' : memory.source === 'loop-proposal' ? 'the chat model (a loop proposal)' : 'the assistant';
  return `- ${sanitiseReadableLine(memory.id)}: ${memory.kind} (${memory.scope}) from ${from}: ${sanitiseReadableLine(memory.text)}`;
}
