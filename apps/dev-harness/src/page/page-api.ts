// The memory page's JSON API: each answer comes from the services every other tool uses — episodes
// and facts read through the audited connection, recall for search, the review queue for pending
// memories, memory-core's forget and edit, the audit log, the local tier when Graphiti does not
// answer, the workspace's open loops (closed or dropped through LoopService, which sends their
// task_update episode). No policy is decided here: what a forget covers, what an edit refuses, what is
// a curated memory, what is stale or cited — all of it is memory-core's. Writes stop the hook processes first,
// as `forget` does, so a drainer lets go of what it holds before the queue is searched.
import { stopHookProcesses } from '@graphiti-memory/agent-hooks';
import type { Episode } from '@graphiti-memory/graphiti-client';
import {
  annotateFacts,
  describeLoop,
  describeLoopProposalMiss,
  describePendingSource,
  guardRecalledFacts,
  isStaleLoop,
  isOwnTeamPromotion,
  pendingGroups,
  sourceForgetSummary,
  TEAM_AUDIENCE,
  WorkspaceFiles,
  type ForgetRequest,
  type MemoryEditOutcome,
  type RecalledFact,
} from '@graphiti-memory/memory-core';
import type { HarnessMemory } from '../composition/harness-container.js';
import { auditWords, conversationDays, curatedMemories, pageFact, type PageScope } from './page-views.js';

/** Episodes read per group, and facts read per page (the newest sources' facts first). */
const EPISODES_LISTED = 500;
const FACTS_LISTED = 120;
const AUDIT_SHOWN = 100;

export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface PageApiOptions {
  readonly workspaceFolder: string;
  readonly timeoutMs: number;
  readonly stateDirectory: string;
  readonly env: NodeJS.ProcessEnv;
}

export class MemoryPageApi {
  constructor(
    private readonly memory: HarnessMemory,
    private readonly options: PageApiOptions,
  ) {}

  /** Everything the page shows for one scope. */
  async overview(scope: PageScope): Promise<Record<string, unknown>> {
    const groupId = await this.groupOf(scope);
    const base = { endpoint: this.memory.endpoint.label, emulator: this.memory.endpoint.emulator !== undefined, workspace: this.options.workspaceFolder, scope, scopes: await this.scopes() };
    const [pending, audit, loops] = await Promise.all([this.pending(), this.audit(), this.openLoops()]);
    if (groupId === undefined) return { ...base, available: false, why: this.unavailableWhy(scope), memories: [], facts: [], conversations: [], pending, loops, audit };
    let episodes: Episode[];
    try {
      episodes = [...(await this.memory.api.getEpisodes(groupId, { lastN: EPISODES_LISTED }, this.call()))];
    } catch (error) {
      return { ...base, available: true, ...(await this.cached(scope, error)), pending, loops, audit };
    }
    const sources = await this.memory.episodeSources.find(episodes.map((episode) => episode.uuid));
    const ownUser = await this.memory.groups.resolve('user');
    const own = new Set<string>();
    for (const episode of episodes) if (await isOwnTeamPromotion(episode, ownUser)) own.add(episode.uuid);
    const memories = await this.guarded(curatedMemories(episodes, sources, (episode) => own.has(episode.uuid)));
    const facts = await this.factsOf(episodes, scope);
    return { ...base, available: true, memories, facts, conversations: scope === 'workspace' ? conversationDays(episodes, sources) : [], pending, loops, audit };
  }

  async search(query: string, scope: PageScope): Promise<Record<string, unknown>> {
    if (query.trim() === '') throw new PageError(400, 'type what to search for');
    const result = await this.memory.recall.recall(query, { scopes: [scope], maxFacts: 30, keepSuperseded: true, timeoutMs: Math.min(this.options.timeoutMs, 10_000) });
    return { outcome: result.outcome, facts: result.facts.map((fact) => pageFact(fact, Date.now())) };
  }

  /** What a forget would delete, in words (the page's confirmation), or the forget itself. */
  async forget(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const what = body['what'];
    const confirm = body['dryRun'] === true;
    if (what === 'memory' || what === 'source') {
      const episode = text(body['episode'], 'episode');
      if (confirm) return { confirm: await this.describeSource(episode, what) };
      await this.stopHooks();
      // A memory another machine sent is not in the record of delivered episodes: its group is found as an edit finds it.
      const groupId = what === 'memory' ? await this.memoryGroup(episode) : undefined;
      const result = await this.memory.forget.forgetSource(episode, { callOptions: this.call(), ...(groupId === undefined ? {} : { groupId }) }).catch((error: unknown) => {
        throw new PageError(502, `forgetting it failed: ${messageOf(error)}`);
      });
      return { done: sourceForgetSummary(result) };
    }
    if (what === 'conversation') return this.forgetConversation(body, confirm);
    if (what === 'scope') {
      const scope = body['scope'];
      if (scope !== 'workspace' && scope !== 'user' && scope !== 'team') throw new PageError(400, 'scope must be workspace, user or team');
      const request: ForgetRequest = scope === 'team' ? { scope, allAuthors: false } : { scope };
      const targets = await this.memory.forget.plan(request);
      if (confirm) return { confirm: `${scopeWords(scope, targets.length)} at ${this.memory.endpoint.label}: every curated memory, fact and conversation in it is deleted from Graphiti and leaves every brief. This cannot be undone.` };
      await this.stopHooks();
      const result = await this.memory.forget.forget(request, this.call());
      const owed = result.owed.length > 0 ? `; Graphiti did not answer, so ${result.owed.length} deletes wait until it is back` : '';
      return { done: `forgot ${scopeWords(scope, targets.length).replace(/^This deletes /, '')}${owed}` };
    }
    throw new PageError(400, 'what must be memory, source, conversation or scope');
  }

  async edit(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const episode = text(body['episode'], 'episode');
    const newText = text(body['text'], 'text');
    await this.stopHooks();
    const outcome = await this.memory.editing.edit({ episode, text: newText, callOptions: this.call() }).catch((error: unknown) => {
      throw new PageError(502, `Graphiti did not answer, so nothing was changed: ${messageOf(error)}`);
    });
    return editAnswer(outcome);
  }

  async approve(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = text(body['id'], 'id');
    const edited = body['text'] === undefined ? {} : { text: text(body['text'], 'text') };
    const outcome = await this.memory.review.approve(id, edited);
    if (outcome.status === 'sent') return { done: `approved: the ${outcome.memory.kind} is sent to your ${outcome.memory.scope} memory` };
    if (outcome.status === 'refused') throw new PageError(422, `not approved (${outcome.reason === 'secret' ? 'it holds something that looks like a secret' : outcome.reason}); it stays pending`);
    if (outcome.status === 'forgotten') throw new PageError(409, 'not approved: the memory it belongs to was forgotten since, so it was dropped');
    if (outcome.status === 'not-applied') throw new PageError(409, `not approved: ${describeLoopProposalMiss(outcome.reason)}`);
    throw new PageError(404, 'no pending memory has that id (approved or rejected elsewhere?)');
  }

  async reject(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const outcome = await this.memory.review.reject(text(body['id'], 'id'));
    if (outcome.status !== 'rejected') throw new PageError(404, 'no pending memory has that id (approved or rejected elsewhere?)');
    return { done: 'rejected; nothing was sent' };
  }

  /**
   * Closes (`done`) or drops one open loop of this workspace, by its id: every tool's next brief stops
   * naming it, and its task_update episode goes to Graphiti (waiting in the outbox while it is down).
   */
  async closeLoop(body: Record<string, unknown>, status: 'done' | 'dropped'): Promise<Record<string, unknown>> {
    const id = text(body['id'], 'id');
    if (!/^[0-9a-f]{12}$/.test(id)) throw new PageError(400, 'id must be the 12 hex characters of a loop (as the page lists it)');
    const closed = await this.memory.loops.close(id, status, 'memory page');
    if (!closed.ok) {
      if (closed.reason === 'not-open') throw new PageError(409, `that loop is already ${closed.matches?.[0]?.status ?? 'closed'} (in another tool?)`);
      if (closed.reason === 'no-workspace') throw new PageError(409, 'this folder has no workspace scope, so it has no loops');
      throw new PageError(404, 'no open loop of this workspace has that id (forgotten, or closed long ago?)');
    }
    this.memory.ingestion.enqueueEntries(closed.entries);
    const told = closed.entries.length > 0 ? '; Graphiti is told with a task_update episode' : '';
    return { done: `${status === 'done' ? 'marked done' : 'dropped'}: “${closed.loop.text}” — briefs no longer name it${told}` };
  }

  /** This workspace's open loops, newest first (a local file: listed with Graphiti down too). */
  private async openLoops(): Promise<unknown[]> {
    const listed = await this.memory.loops.list().catch(() => undefined);
    const expireDays = this.memory.configuration.current().loops.expireDays;
    const now = new Date();
    return (listed?.loops ?? []).map((loop) => ({ id: loop.id, text: loop.text, tool: loop.evidence.tool, createdAt: loop.createdAt, stale: isStaleLoop(loop, now, expireDays), age: describeLoop(loop, now, expireDays) }));
  }

  private async forgetConversation(body: Record<string, unknown>, confirm: boolean): Promise<Record<string, unknown>> {
    const episodes = Array.isArray(body['episodes']) ? body['episodes'].filter((episode): episode is string => typeof episode === 'string' && /^[\w-]{1,100}$/.test(episode)) : [];
    const session = typeof body['session'] === 'string' && body['session'] !== '' && !episodes.includes(body['session']) ? body['session'] : undefined;
    if (episodes.length === 0) throw new PageError(400, 'a conversation needs its episodes');
    if (confirm) return { confirm: `This deletes the conversation${session === undefined ? '' : ` ${session}`} (${episodes.length} ${episodes.length === 1 ? 'part' : 'parts'}, in every group it was sent to) and the facts only it supports, at ${this.memory.endpoint.label}. It is never captured again.` };
    await this.stopHooks();
    // The page lists conversations from the workspace group: a part another machine sent is found there.
    const known = await this.memory.episodeSources.find(episodes);
    const workspace = await this.memory.groups.resolve('workspace');
    let deleted = 0;
    for (const episode of episodes) {
      const groupId = known.has(episode) ? undefined : workspace;
      // A part another tool forgot meanwhile is already gone.
      const result = await this.memory.forget.forgetSource(episode, { callOptions: this.call(), ...(groupId === undefined ? {} : { groupId }) }).catch((error: unknown) => {
        if ((error as { status?: number }).status === 404) return undefined;
        throw new PageError(502, `forgetting the conversation failed: ${messageOf(error)}`);
      });
      deleted += result?.episodes.length ?? 0;
    }
    if (session !== undefined) await this.memory.forget.forget({ scope: 'session', sessionId: session }, this.call());
    return { done: `forgot the conversation: ${deleted} ${deleted === 1 ? 'episode' : 'episodes'} deleted${session === undefined ? '' : ', and its session group'}` };
  }

  /** Facts extracted from the scope's episodes, read one by one (REST and MCP both have the route), guarded, cited and stale-checked as recall does. */
  private async factsOf(episodes: readonly Episode[], scope: PageScope): Promise<unknown[]> {
    const edges = [...new Set([...episodes].reverse().flatMap((episode) => episode.entity_edges ?? []))].slice(0, FACTS_LISTED);
    const read = await Promise.all(edges.map((edge) => this.memory.api.getEntityEdge?.(edge, this.call()).catch(() => undefined)));
    const facts: RecalledFact[] = read.flatMap((fact, rank) => (fact === undefined ? [] : [{ ...fact, scope, rank }]));
    const tier = (await this.memory.tier.read())?.facts.filter((fact) => fact.scope === scope && !facts.some((known) => known.uuid === fact.uuid)) ?? [];
    return (await this.annotated([...facts, ...tier])).map((fact) => pageFact(fact, Date.now()));
  }

  private async annotated(facts: readonly RecalledFact[]): Promise<RecalledFact[]> {
    const guarded = await guardRecalledFacts(this.memory.guard, facts);
    return annotateFacts(guarded, { sources: this.memory.episodeSources, files: this.memory.container.get<WorkspaceFiles>(WorkspaceFiles) }, 'mark');
  }

  private async guarded<Item extends { readonly text: string }>(items: readonly Item[]): Promise<Item[]> {
    const guarded = await guardRecalledFacts(this.memory.guard, items.map((item) => ({ ...item, fact: item.text })));
    return guarded.map(({ fact, ...item }) => ({ ...item, text: fact }) as unknown as Item);
  }

  /** Graphiti did not answer: the local tier's copy, labelled. */
  private async cached(scope: PageScope, error: unknown): Promise<Record<string, unknown>> {
    const tier = await this.memory.tier.read();
    const memories = (tier?.promoted ?? []).filter((promotion) => promotion.scope === scope).map((promotion) => ({ episode: promotion.episodeUuid ?? '', kind: promotion.kind, scope: promotion.scope, text: promotion.text, date: promotion.createdAt, who: promotion.author ?? 'you', tool: promotion.tool ?? 'not recorded here' }));
    const facts = (await this.annotated((tier?.facts ?? []).filter((fact) => fact.scope === scope))).map((fact) => pageFact(fact, Date.now()));
    return { cached: `Graphiti did not answer (${messageOf(error)}): this is the copy kept on this machine${tier === undefined ? '' : `, from ${tier.updatedAt}`}`, memories, facts, conversations: [] };
  }

  /** The group of a curated memory this machine did not deliver (else the record of delivered episodes knows it). */
  private async memoryGroup(episode: string): Promise<string | undefined> {
    if ((await this.memory.episodeSources.find([episode])).has(episode)) return undefined;
    const found = await this.memory.editing.find(episode, { callOptions: this.call() }).catch(() => undefined);
    return found === undefined || 'status' in found ? undefined : found.groupId;
  }

  private async describeSource(episode: string, what: 'memory' | 'source'): Promise<string> {
    if (what === 'memory') {
      const found = await this.memory.editing.find(episode, { callOptions: this.call() }).catch(() => undefined);
      if (found !== undefined && !('status' in found)) return `This forgets the ${found.kind} "${found.text}" (${found.scope}) at ${this.memory.endpoint.label}: its episode and the facts only it supports are deleted, and it leaves every brief.`;
    }
    const known = (await this.memory.episodeSources.find([episode])).get(episode);
    const from = known === undefined ? 'this source' : `the source from ${known.tool}, ${known.at.slice(0, 10)}${known.title === undefined ? '' : ` ("${known.title}")`}`;
    return `This forgets ${from} at ${this.memory.endpoint.label}: its episode in every group it was sent to and the facts only it supports.`;
  }

  private async pending(): Promise<unknown[]> {
    const groups = new Set((await this.memory.groups.resolveMany(['workspace', 'user', 'team'])).map((group) => group.groupId));
    return (await this.memory.pending.list())
      .filter((memory) => {
        const of = pendingGroups(memory);
        return of === undefined || of.some((group) => groups.has(group));
      })
      .map((memory) => ({ id: memory.id, kind: memory.kind, scope: memory.scope, text: memory.text, source: describePendingSource(memory.source), createdAt: new Date(memory.createdAt).toISOString() }));
  }

  private async audit(): Promise<unknown[]> {
    const resolved = await this.memory.groups.resolveMany(['workspace', 'user', 'team']);
    const names = new Map(resolved.map((group) => [group.groupId, group.scope === 'user' ? 'your personal' : `this ${group.scope}'s`]));
    for (const record of (await this.memory.registry?.list()) ?? []) if (record.scope === 'session' && !names.has(record.groupId)) names.set(record.groupId, 'a conversation\'s');
    const entries = await this.memory.audit.read({ endpoint: this.memory.endpoint.url, since: Date.now() - 30 * 24 * 60 * 60_000 });
    return entries
      .slice(-AUDIT_SHOWN)
      .reverse()
      .map((entry) => ({ at: entry.at, words: auditWords(entry, (groupId) => names.get(groupId) ?? "another workspace's") }));
  }

  private async scopes(): Promise<unknown[]> {
    return Promise.all((['workspace', 'user', 'team'] as const).map(async (scope) => ({ scope, available: (await this.groupOf(scope)) !== undefined })));
  }

  private async groupOf(scope: PageScope): Promise<string | undefined> {
    if (scope === 'team' && !this.memory.configuration.current().team.consent) return undefined;
    return this.memory.groups.resolve(scope);
  }

  private unavailableWhy(scope: PageScope): string {
    if (scope === 'team' && !this.memory.configuration.current().team.consent) return `The team scope is off: what is shared there is read by ${TEAM_AUDIENCE}. Turn it on with graphiti-harness team enable.`;
    return scope === 'team' ? 'This workspace has no git remote, so it has no team memory.' : 'This scope has no memory here.';
  }

  private call(): { timeoutMs: number; maxRetries: number } {
    return { timeoutMs: this.options.timeoutMs, maxRetries: 0 };
  }

  private async stopHooks(): Promise<void> {
    await stopHookProcesses(this.options.env, this.options.stateDirectory).catch(() => undefined);
  }
}

function scopeWords(scope: 'workspace' | 'user' | 'team', groups: number): string {
  if (scope === 'workspace') return `This deletes this workspace's memory and all its conversations (${groups} ${groups === 1 ? 'group' : 'groups'})`;
  if (scope === 'user') return 'This deletes your personal memory, shared by all your workspaces';
  return 'This deletes what you shared with the team (your memories only; your teammates\' stay)';
}

function editAnswer(outcome: MemoryEditOutcome): Record<string, unknown> {
  switch (outcome.status) {
    case 'edited':
      return { done: `edited: the new ${outcome.kind} (${outcome.scope}) replaces the old one, which is gone with the facts only it supported` };
    case 'old-kept':
      throw new PageError(502, `the new version is saved, but the old one could not be deleted (${outcome.message}); forget it once Graphiti answers`);
    case 'not-found':
      throw new PageError(404, 'that memory is not in Graphiti any more (forgotten or edited elsewhere?)');
    case 'not-curated':
      throw new PageError(409, 'this is a captured conversation, not a curated memory: it can be forgotten, not edited');
    case 'not-yours':
      throw new PageError(403, 'a teammate shared this memory: only its author can edit it');
    case 'unchanged':
      throw new PageError(409, 'the text is the same as before: nothing changed');
    case 'refused':
      throw new PageError(422, outcome.reason === 'secret' ? 'the new text holds something that looks like a secret (a key, token or password): nothing changed' : `the new text was refused (${outcome.reason}): nothing changed`);
  }
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > 20_000) throw new PageError(400, `${name} must be a non-empty text`);
  return value;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
