// Editing a curated memory supersedes it: Graphiti cannot change an episode (no route rewrites one,
// and a given uuid means "re-process that episode"), so the new text is promoted as a new episode —
// through `MemoryPromotion`, the path every promote takes (gate, secret guard, scopes, team consent,
// the local tier) — and then the old episode is forgotten through `ForgetService.forgetSource` (with
// the facts only it supports, out of the local tier and the record of delivered episodes). Graphiti
// sees a new episode in the same group and the old one deleted. Nothing is changed before the old
// episode is found and the new text is accepted, so a refused edit leaves the memory as it was.
import type { Episode } from '@graphiti-memory/graphiti-client';
import { inject, injectable, optional } from 'inversify';
import { parseDirectives } from '../directives/directive-parser.js';
import { ForgetService, type SourceForgetResult } from '../forget/forget-service.js';
import { SOURCE_COPY_LISTING } from '../forget/source-copies.js';
import { GraphitiConnection, Logger, type GraphitiCallOptions } from '../ports.js';
import { parsePromotionEpisode, type PromotionKind, type PromotionScope, type StoredPromotion } from '../promotion/episode-format.js';
import { MemoryPromotion } from '../promotion/memory-promotion.js';
import type { PromotionRefusal } from '../promotion/promotion-service.js';
import { isOwnTeamPromotion } from '../recall/team-authors.js';
import { GroupIdResolver } from '../scopes/group-id-resolver.js';
import { EpisodeSources } from '../sources/episode-sources.js';
import { errorClassOf } from '../errors/graphiti-failure.js';

export interface MemoryEdit {
  /** The uuid of the curated memory's episode (as `episodes`, the view or a citation names it). */
  readonly episode: string;
  /**
   * The new text. A single directive line (`preference (user): …`) also changes the kind, and the
   * scope when it names one, as a directive said in chat would; any other text keeps both.
   */
  readonly text: string;
  /** The episode's group, when known; else the record of delivered episodes, else the workspace, user and team groups are searched. */
  readonly groupId?: string;
  readonly callOptions?: GraphitiCallOptions;
}

/** A curated memory as Graphiti holds it. */
export interface StoredMemory extends StoredPromotion {
  readonly episode: string;
  readonly groupId: string;
  readonly name: string;
}

export type MemoryEditOutcome =
  /** The new version is queued (and in every brief), the old episode deleted with the facts only it supported. */
  | { readonly status: 'edited'; readonly previous: StoredMemory; readonly kind: PromotionKind; readonly scope: PromotionScope; readonly groupId: string; readonly episodeName: string; readonly forgotten: SourceForgetResult }
  /** The new version is queued, but deleting the old one failed: both exist until `forget --episode` succeeds. */
  | { readonly status: 'old-kept'; readonly previous: StoredMemory; readonly kind: PromotionKind; readonly scope: PromotionScope; readonly groupId: string; readonly episodeName: string; readonly errorClass: string; readonly message: string }
  /** No episode of that uuid in its group (or in the workspace, user and team groups). */
  | { readonly status: 'not-found'; readonly episode: string; readonly searched: readonly string[] }
  /** The episode is a captured conversation or someone else's write, not a curated memory: it can be forgotten, not edited. */
  | { readonly status: 'not-curated'; readonly episode: string; readonly groupId: string }
  /** A teammate's team memory: only its author edits it. */
  | { readonly status: 'not-yours'; readonly previous: StoredMemory }
  /** The same kind, scope and text: nothing to do. */
  | { readonly status: 'unchanged'; readonly previous: StoredMemory }
  /** The new text was refused (a secret, the gate closed, …): nothing changed. */
  | { readonly status: 'refused'; readonly previous: StoredMemory; readonly reason: PromotionRefusal };

export interface MemoryEditing {
  /** The curated memory of `episode`, or why there is none (`not-found`, `not-curated`). Rejects when Graphiti does. */
  find(episode: string, options?: { readonly groupId?: string; readonly callOptions?: GraphitiCallOptions }): Promise<StoredMemory | Extract<MemoryEditOutcome, { status: 'not-found' | 'not-curated' }>>;
  /**
   * Supersedes the memory: promotes the new version, then forgets the old episode. Rejects only when
   * Graphiti fails before anything changed (finding the episode); every other miss is an outcome.
   */
  edit(request: MemoryEdit): Promise<MemoryEditOutcome>;
}
export const MemoryEditing = Symbol.for('graphiti-memory.MemoryEditing');

@injectable()
export class SupersedingMemoryEditing implements MemoryEditing {
  constructor(
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(MemoryPromotion) private readonly promotion: MemoryPromotion,
    @inject(ForgetService) private readonly forget: ForgetService,
    @inject(Logger) private readonly logger: Logger,
    @inject(EpisodeSources) @optional() private readonly sources?: EpisodeSources,
  ) {}

  async find(episode: string, options: { readonly groupId?: string; readonly callOptions?: GraphitiCallOptions } = {}): ReturnType<MemoryEditing['find']> {
    const located = await this.locate(episode, options);
    return 'status' in located ? located : located.memory;
  }

  /** The memory and the episode as listed (its stored body says whose team memory it is). */
  private async locate(episode: string, options: { readonly groupId?: string; readonly callOptions?: GraphitiCallOptions }): Promise<{ memory: StoredMemory; listed: Episode } | Extract<MemoryEditOutcome, { status: 'not-found' | 'not-curated' }>> {
    const api = this.connection.current();
    if (api === undefined) throw new Error('edit: no Graphiti endpoint is configured, so the memory cannot be read; set the endpoint first.');
    const candidates = await this.candidateGroups(episode, options.groupId);
    for (const groupId of candidates) {
      const listed = (await api.getEpisodes(groupId, { lastN: SOURCE_COPY_LISTING }, options.callOptions ?? {})).find((candidate) => candidate.uuid === episode);
      if (listed === undefined) continue;
      const stored = parsePromotionEpisode(listed);
      if (stored === undefined) return { status: 'not-curated', episode, groupId };
      return { memory: { ...stored, episode, groupId, name: listed.name }, listed };
    }
    return { status: 'not-found', episode, searched: candidates };
  }

  async edit(request: MemoryEdit): Promise<MemoryEditOutcome> {
    const located = await this.locate(request.episode, request);
    if ('status' in located) return located;
    const previous = located.memory;
    if (previous.scope === 'team' && !(await isOwnTeamPromotion(located.listed, await this.groups.resolve('user')))) {
      return { status: 'not-yours', previous };
    }
    const wanted = editedMemory(previous, request.text);
    if (wanted.kind === previous.kind && wanted.scope === previous.scope && wanted.text === previous.text) return { status: 'unchanged', previous };
    const promoted = await this.promotion.promote(wanted);
    if (!promoted.ok) return { status: 'refused', previous, reason: promoted.reason };
    const queued = { previous, kind: wanted.kind, scope: wanted.scope, groupId: promoted.groupId, episodeName: promoted.episodeName };
    try {
      const forgotten = await this.forget.forgetSource(previous.episode, { groupId: previous.groupId, ...(request.callOptions === undefined ? {} : { callOptions: request.callOptions }) });
      this.logger.info('edit: memory superseded', { kind: wanted.kind, scope: wanted.scope, facts: forgotten.deletedFacts?.length ?? -1 });
      return { status: 'edited', ...queued, forgotten };
    } catch (error) {
      this.logger.warn('edit: the new version is queued, the old one could not be deleted', { errorClass: errorClassOf(error) });
      return { status: 'old-kept', ...queued, errorClass: errorClassOf(error), message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Where the episode may be: the group given, else the one it was delivered to, else every group a curated memory goes to. */
  private async candidateGroups(episode: string, groupId: string | undefined): Promise<string[]> {
    if (groupId !== undefined) return [groupId];
    const delivered = (await this.sources?.find([episode]).catch(() => undefined))?.get(episode)?.groupId;
    if (delivered !== undefined) return [delivered];
    return (await this.groups.resolveMany(['workspace', 'user', 'team'])).map((group) => group.groupId);
  }
}

/** The kind, scope and text an edit asks for: a single directive line names the kind (and scope); other text keeps both. */
export function editedMemory(previous: Pick<StoredPromotion, 'kind' | 'scope'>, text: string): { kind: PromotionKind; scope: PromotionScope; text: string } {
  const trimmed = text.trim();
  const directives = trimmed.includes('\n') ? [] : parseDirectives(trimmed);
  const directive = directives.length === 1 ? directives[0] : undefined;
  if (directive === undefined) return { kind: previous.kind, scope: previous.scope, text: trimmed };
  return { kind: directive.kind, scope: directive.scopeWasExplicit ? directive.scope : previous.scope, text: directive.text };
}
