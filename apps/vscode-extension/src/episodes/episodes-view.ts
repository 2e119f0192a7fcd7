// The "Graphiti Memory" view, in the order a user looks for things: pending memories (review), open
// loops (to-dos and follow-ups of every tool's sessions, closed or dropped here: open-loops.ts),
// curated memories (promoted and approved, each once; the team's too, with their authors, once the
// user consented to the team scope, never deletable here), what memory knows (facts, searchable, with
// the episode each came from when the server cites it) and conversations (chat sessions with their
// turns inside). Refresh, delete an episode, forget one source, a session or a scope (all confirmed). Empty while the gate
// is closed or nothing is stored, so the welcome view (package.json viewsWelcome, keyed on
// `graphitiMemory.state`) says what to do.
import { inject, injectable, optional } from 'inversify';
import * as vscode from 'vscode';
import type { Episode, FactResult } from '@graphiti-memory/graphiti-client';
import {
  GraphitiConnection,
  GroupIdResolver,
  GroupRegistry,
  LocalTier,
  Logger,
  LoopService,
  MemoryConfiguration,
  MemoryGate,
  RecallService,
  ReviewQueue,
  type GroupRecord,
  type MemoryScope,
  type RecalledFact,
} from '@graphiti-memory/memory-core';
import { factLineSuffix, sanitiseFactText } from '@graphiti-memory/prompt-elements';
import { errorClass } from '../commands/describe-error.js';
import { episodeTitle, treeItemOf, type EpisodeNode, type EpisodeScope, type ShownFact } from './episode-nodes.js';
import { localMemories, waitingConversation, type LocalMemory } from './cached-memories.js';
import { markStep } from '../status/walkthrough-progress.js';
import { shownLoops, type ShownLoop } from './open-loop-nodes.js';
import { curatedMemories, digestTurnsOf, factSource, isPromotion, turnsOf, type CuratedMemory, type EpisodeSource, type ScopedEpisodes, type Turn } from './memory-tree.js';

export { episodeTitle, type EpisodeNode } from './episode-nodes.js';

export const EPISODES_VIEW = 'graphitiMemory.episodes';
export const RECENT_EPISODES = 25;
/** Episodes read per scope to find its curated memories among the chat turns. */
export const SCANNED_EPISODES = 100;
/** Facts shown: those extracted from the newest memories, or a search's best. */
export const FACTS_SHOWN = 20;
export const DELETE = 'Delete';
/** After a confirmation, how long the view waits for more before it reads Graphiti again. */
export const REFRESH_DEBOUNCE_MS = 1_000;
/** After a change of the local tier's folder, how long the view waits for more before it reads again. */
export const TIER_REFRESH_MS = 300;
const UNREACHABLE = 'Graphiti is unreachable: run "Graphiti Memory: Test Connection"';
/** While Graphiti does not answer, the view shows what this machine keeps, and says so first. */
const SHOWING_CACHED = 'Graphiti is not answering: showing what this machine keeps and what waits to be sent. Click to test the connection.';
const TEST_CONNECTION_COMMAND: vscode.Command = { command: 'graphitiMemory.testConnection', title: 'Test Connection', arguments: ['health'] };
const SEARCH_COMMAND: vscode.Command = { command: 'graphitiMemory.searchMemory', title: 'Search Memory' };

export interface SearchResult {
  readonly ok: boolean;
  readonly facts: number;
  readonly message: string;
}

@injectable()
export class EpisodesTreeProvider implements vscode.TreeDataProvider<EpisodeNode> {
  readonly #changed = new vscode.EventEmitter<EpisodeNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  /** What the view loaded last, by episode uuid: where a fact came from. */
  readonly #sources = new Map<string, EpisodeSource>();
  /** The episodes behind those sources, by uuid: a fact opens the conversation or memory it came from. */
  readonly #episodes = new Map<string, { readonly scope: EpisodeScope; readonly episode: Episode }>();
  #scopes: readonly ScopedEpisodes[] = [];
  #search: { readonly query: string; readonly facts: readonly RecalledFact[] } | undefined;

  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(GroupRegistry) private readonly registry: GroupRegistry,
    @inject(ReviewQueue) private readonly review: ReviewQueue,
    @inject(Logger) private readonly logger: Logger,
    @inject(RecallService) private readonly recall: RecallService,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(LocalTier) private readonly tier: LocalTier,
    @inject(LoopService) @optional() private readonly loops?: LoopService,
  ) {}

  /** Whether this machine's local tier keeps at least one memory (never rejects). */
  async hasLocalMemory(): Promise<boolean> {
    return ((await this.tier.read().catch(() => undefined))?.promoted.length ?? 0) > 0;
  }

  /** The episode the view loaded under `uuid`, with the scope it was read from. */
  episodeOf(uuid: string): { readonly scope: EpisodeScope; readonly episode: Episode } | undefined {
    return this.#episodes.get(uuid);
  }

  /** The team group is read only once the user consented to the team scope. */
  #teamScope(): readonly MemoryScope[] {
    return this.configuration.current().team.consent ? ['team'] : [];
  }

  refresh(): void {
    this.#changed.fire(undefined);
  }

  getTreeItem(node: EpisodeNode): vscode.TreeItem {
    const item = treeItemOf(node);
    // A search's results open by themselves.
    if (node.type === 'factsRoot' && node.query !== undefined) item.collapsibleState = vscode.TreeItemCollapsibleState.Expanded;
    return item;
  }

  async getChildren(node?: EpisodeNode): Promise<EpisodeNode[]> {
    if (!this.gate.evaluate().open) return [];
    if (node === undefined) return this.#roots();
    switch (node.type) {
      case 'pendingRoot':
        return (await this.#pending()).map((memory) => ({ type: 'pending' as const, memory }));
      case 'loopsRoot':
        return node.loops.map((loop) => ({ type: 'loop' as const, loop }));
      case 'curatedRoot': {
        const local = (node.local ?? []).map((memory) => ({ type: 'localMemory' as const, memory }));
        if (node.memories.length === 0 && local.length === 0) {
          return [{ type: 'message', text: 'Nothing curated yet: promote a decision or preference, or approve a pending one.', command: { command: 'graphitiMemory.promote', title: 'Promote to Memory' }, icon: 'add' }];
        }
        return [...local, ...node.memories.map(({ scope, episode }) => ({ type: 'episode' as const, scope, episode }))];
      }
      case 'factsRoot':
        return this.#facts(node.query);
      case 'sessions':
        return node.sessions.length > 0
          ? node.sessions.map((record) => ({ type: 'session' as const, record }))
          : (node.turns ?? []).map((turn) => conversationNode('workspace', turn));
      case 'session':
        return this.#turns(node.record);
      case 'turn':
        return node.turn.episodes.map((episode) => ({ type: 'episode' as const, scope: node.scope, episode }));
      case 'episode':
        return digestTurnsOf(node.episode).map((turn, index) => ({ type: 'digestTurn' as const, episode: node.episode, index, turn }));
      default:
        return [];
    }
  }

  /** The session groups of this workspace in the registry, most recently written first. */
  async sessionsOfWorkspace(): Promise<GroupRecord[]> {
    const workspace = await this.groups.resolve('workspace');
    if (workspace === undefined) return [];
    try {
      return (await this.registry.list()).filter((record) => record.scope === 'session' && record.workspaceKey === workspace);
    } catch (error) {
      this.logger.warn('episodes view: reading the group registry failed', { errorClass: errorClass(error) });
      return [];
    }
  }

  /** Searches what memory knows (workspace and user facts) and shows the result in the view. */
  async search(query: string): Promise<SearchResult> {
    if (query.trim() === '') {
      this.#search = undefined;
      this.refresh();
      return { ok: true, facts: 0, message: 'The search was cleared.' };
    }
    const result = await this.recall.recall(query, { scopes: ['workspace', 'user', ...this.#teamScope()], maxFacts: FACTS_SHOWN, keepSuperseded: true, timeoutMs: 5_000 });
    if (result.outcome === 'skipped') {
      const message =
        result.skippedBecause === 'recall-disabled' || result.skippedBecause === 'recall-not-consented'
          ? 'Searching sends your words to Graphiti as a recall query, and recall is off (or not consented). Turn on "Recall" in the Graphiti Memory settings to search.'
          : 'Graphiti Memory is off here: nothing was searched.';
      return { ok: false, facts: 0, message };
    }
    if (result.outcome === 'timeout' || result.outcome === 'error') {
      return { ok: false, facts: 0, message: `Graphiti did not answer the search (${result.outcome}). Run "Graphiti Memory: Test Connection".` };
    }
    this.#search = { query, facts: result.facts };
    this.refresh();
    return { ok: true, facts: result.facts.length, message: `${result.facts.length} fact${result.facts.length === 1 ? '' : 's'} about "${query}".` };
  }

  async #roots(): Promise<EpisodeNode[]> {
    const [resolved, sessions, pending, loops] = await Promise.all([this.groups.resolveMany(['workspace', 'user', ...this.#teamScope()]), this.sessionsOfWorkspace(), this.#pending(), this.#openLoops()]);
    const scopes: ScopedEpisodes[] = [];
    let unreachable = false;
    await Promise.all(
      resolved.map(async ({ scope, groupId }) => {
        if (scope !== 'workspace' && scope !== 'user' && scope !== 'team') return;
        const loaded = await this.#load(groupId, scope, SCANNED_EPISODES);
        // The team group holds promoted memories only (memory-core refuses anything else there).
        const episodes = scope === 'team' ? loaded?.filter(isPromotion) : loaded;
        if (episodes === undefined) unreachable = true;
        else scopes.push({ scope, episodes });
      }),
    );
    this.#scopes = scopes;
    const curated = curatedMemories(scopes);
    if (curated.length > 0) markStep('memoryStored');
    const local = await this.#localMemories(curated, !unreachable && this.connection.current() !== undefined);
    const workspaceTurns = sessions.length > 0 ? [] : turnsOf(scopes.find((group) => group.scope === 'workspace')?.episodes ?? []);
    const roots: EpisodeNode[] = pending.length > 0 ? [{ type: 'pendingRoot', count: pending.length }] : [];
    if (loops.length > 0) roots.push({ type: 'loopsRoot', loops });
    if (unreachable) roots.push({ type: 'message', text: SHOWING_CACHED, command: TEST_CONNECTION_COMMAND, icon: 'warning' });
    // Nothing stored and nothing searched: the welcome view says what to do.
    if (roots.length === 0 && curated.length === 0 && local.length === 0 && sessions.length === 0 && workspaceTurns.length === 0 && this.#search === undefined) return [];
    roots.push({ type: 'curatedRoot', memories: curated, local });
    roots.push({ type: 'factsRoot', query: this.#search?.query });
    roots.push({ type: 'sessions', sessions, ...(sessions.length > 0 ? {} : { turns: workspaceTurns }) });
    return roots;
  }

  /** The local tier's memories Graphiti did not show: waiting to be sent, or (Graphiti down) every one this machine keeps. */
  async #localMemories(shown: readonly CuratedMemory[], reachable: boolean): Promise<LocalMemory[]> {
    try {
      const tier = await this.tier.read();
      const scopes = new Set<string>(['workspace', 'user', ...this.#teamScope()]);
      return localMemories((tier?.promoted ?? []).filter((promotion) => scopes.has(promotion.scope)), shown, reachable);
    } catch (error) {
      this.logger.info('episodes view: reading the local tier failed', { errorClass: errorClass(error) });
      return [];
    }
  }

  /** This workspace's open loops (a local file: shown with Graphiti down too); `[]` when it cannot be read. */
  async #openLoops(): Promise<ShownLoop[]> {
    if (this.loops === undefined) return [];
    try {
      return await shownLoops(this.loops, this.configuration.current().loops.expireDays, new Date());
    } catch (error) {
      this.logger.warn('episodes view: reading open loops failed', { errorClass: errorClass(error) });
      return [];
    }
  }

  async #pending() {
    try {
      return await this.review.list();
    } catch (error) {
      this.logger.warn('episodes view: reading pending memories failed', { errorClass: errorClass(error) });
      return [];
    }
  }

  /** Facts of a search, or those Graphiti extracted from the newest memories the view loaded. */
  async #facts(query: string | undefined): Promise<EpisodeNode[]> {
    const search: EpisodeNode = { type: 'message', text: query === undefined ? 'Search what memory knows…' : 'Search again or clear…', command: SEARCH_COMMAND };
    if (query !== undefined && this.#search?.query === query) {
      // Sources resolved now: the view has loaded the episodes they cite by the time it opens this.
      // Searched facts are recalled ones: each ends as its line in the prompt (stale mark, citation).
      const facts = this.#search.facts.map((fact) => this.#shown(fact, fact.episodes ?? [], factLineSuffix(fact).trim())).filter((fact) => fact.fact !== '').map((fact) => ({ type: 'fact' as const, fact }));
      return [search, ...(facts.length > 0 ? facts : [{ type: 'message' as const, text: 'No facts match.' }])];
    }
    const client = this.connection.current();
    if (client === undefined) return [search];
    // Curated memories first, then the newest turns: their facts, each once.
    const edges = new Map<string, Episode>();
    const episodes = [...curatedMemories(this.#scopes).map((memory) => memory.episode), ...this.#scopes.flatMap((group) => group.episodes).reverse()];
    for (const episode of episodes) for (const edge of episode.entity_edges) if (!edges.has(edge)) edges.set(edge, episode);
    const loaded = await Promise.all(
      [...edges.keys()].slice(0, FACTS_SHOWN).map(async (uuid) => {
        try {
          if (client.getEntityEdge === undefined) return undefined;
          const fact = await client.getEntityEdge(uuid);
          return this.#shown(fact, [edges.get(uuid)?.uuid ?? '', ...(fact.episodes ?? [])]);
        } catch (error) {
          // A fact deleted since (404) or a failed read: left out, the rest still shows.
          this.logger.info('episodes view: reading a fact failed', { errorClass: errorClass(error) });
          return undefined;
        }
      }),
    );
    // A fact that is nothing but markup says nothing: left out.
    const facts = loaded.filter((fact): fact is ShownFact => fact !== undefined && fact.fact !== '').sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
    if (facts.length > 0) return [search, ...facts.map((fact) => ({ type: 'fact' as const, fact }))];
    // Graphiti's MCP server does not say which facts an episode gave: there, only a search shows them.
    const empty = edges.size === 0 && episodes.length > 0 ? 'Search to see what memory knows about something.' : 'No facts yet: Graphiti extracts them a little after a memory is stored.';
    return [search, { type: 'message', text: empty }];
  }

  /** `ending`: what ends a recalled fact's line in the prompt; a fact read by its uuid has none. */
  #shown(fact: FactResult, cited: readonly string[], ending = ''): ShownFact {
    const episodes = [...new Set(cited.filter((uuid) => uuid !== ''))];
    return {
      ...(ending === '' ? {} : { ending }),
      uuid: fact.uuid,
      // Shown as data: one line, without the episode tags a fact may have been extracted with.
      fact: sanitiseFactText(fact.fact.replace(/<\/?graphiti_episode[^>]*>/g, ' ')),
      valid_at: fact.valid_at,
      invalid_at: fact.invalid_at,
      expired_at: fact.expired_at,
      created_at: fact.created_at,
      source: factSource({ episodes }, this.#sources),
      episodes,
    };
  }

  async #turns(record: GroupRecord): Promise<EpisodeNode[]> {
    const episodes = await this.#load(record.groupId, 'session', RECENT_EPISODES * 2);
    if (episodes === undefined) return [{ type: 'message', text: UNREACHABLE, command: TEST_CONNECTION_COMMAND, icon: 'warning' }];
    const turns = turnsOf(episodes);
    if (turns.length > 0) return turns.map((turn) => conversationNode('session', turn));
    // Captured but not in Graphiti yet: its digest waits for the idle while (or Graphiti's processing).
    const { capture } = this.configuration.current();
    return [{ type: 'message', text: waitingConversation(record.lastWriteAt, { idleMinutes: capture.idleMinutes, granularity: capture.granularity, now: Date.now() }), icon: 'clock' }];
  }

  /** A group's newest episodes (oldest first, as Graphiti answers), remembered as fact sources; `undefined` when unreachable. */
  async #load(groupId: string, scope: EpisodeScope, lastN: number): Promise<readonly Episode[] | undefined> {
    const client = this.connection.current();
    if (client === undefined) return [];
    try {
      const episodes = await client.getEpisodes(groupId, { lastN });
      // Bounded: a long session of browsing must not grow it without end.
      if (this.#sources.size > 5_000) {
        this.#sources.clear();
        this.#episodes.clear();
      }
      for (const episode of episodes) {
        this.#sources.set(episode.uuid, { scope, title: digestTurnsOf(episode)[0]?.question ?? episodeTitle(episode), at: episode.valid_at });
        this.#episodes.set(episode.uuid, { scope, episode });
      }
      return episodes;
    } catch (error) {
      this.logger.warn('episodes view: loading failed', { scope, errorClass: errorClass(error) });
      return undefined;
    }
  }
}

/** A turn of a conversation; a session digest (one episode holding several turns) as itself, opening on its turns. */
function conversationNode(scope: 'workspace' | 'session', turn: Turn): EpisodeNode {
  const [only, ...others] = turn.episodes;
  if (only !== undefined && others.length === 0 && digestTurnsOf(only).length > 0) return { type: 'episode', scope, episode: only };
  return { type: 'turn', scope, turn };
}

