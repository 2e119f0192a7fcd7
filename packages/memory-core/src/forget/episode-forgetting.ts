// Forgetting one source: an episode deleted from Graphiti, with the facts only it supports. MCP's
// `delete_episode` removes those itself; REST's `DELETE /episode/{uuid}` leaves them, so there the
// facts the episode produced (its `entity_edges`) are read first and each whose `episodes` names
// no other episode is deleted too (`DELETE /entity-edge/{uuid}`). A fact whose server does not say
// which episodes support it (an older REST image) is kept: deleting it could lose another source.
import type { GraphitiApi, GraphitiCallOptions } from '../ports.js';
import type { EpisodeSources } from '../sources/episode-sources.js';
import type { LocalTier } from '../tier/local-tier.js';

/** The routes forgetting an episode uses (graphiti-client's clients, REST and MCP, have them all). */
export type EpisodeForgetApi = Pick<GraphitiApi, 'serverFace' | 'getEpisodes' | 'getEntityEdge' | 'deleteEntityEdge' | 'deleteEpisode'>;

export interface EpisodeForgetOptions {
  /** The episode's group; by default the one the record of delivered episodes knows. Needed on REST. */
  readonly groupId?: string;
  /** The record of delivered episodes: where the group is looked up, and what forgets the episode after. */
  readonly sources?: EpisodeSources;
  readonly callOptions?: GraphitiCallOptions;
  /**
   * The facts the episode produced, when a listing of its group was read already (a team forget
   * lists the group once for all of its episodes): the group is not listed again.
   */
  readonly entityEdges?: readonly string[];
  /**
   * Other episodes forgotten with this one (the copies of one source in its other groups): a fact
   * they alone support with it goes too.
   */
  readonly alsoForgotten?: readonly string[];
  /** The local tier: what came from the episode leaves every brief and cached answer. */
  readonly tier?: Pick<LocalTier, 'forgetEpisodes'>;
  /** The episode's name, when known: a promotion the tier recorded before reading its uuid back leaves it too. */
  readonly episodeName?: string;
}

export interface EpisodeForgetResult {
  readonly episode: string;
  readonly face: 'rest' | 'mcp';
  /** Facts deleted because this episode alone supported them (REST; MCP cascades without saying which). */
  readonly deletedFacts: readonly string[];
  /** Facts other episodes support too: kept. */
  readonly keptFacts: number;
  /** Facts whose server did not say which episodes support them: kept. */
  readonly unknownFacts: number;
}

/** How many of the group's newest episodes are read to find the episode's facts. */
const EPISODES_SEARCHED = 1000;

export async function forgetEpisode(api: EpisodeForgetApi, episode: string, options: EpisodeForgetOptions = {}): Promise<EpisodeForgetResult> {
  const call = options.callOptions ?? {};
  const face = (await api.serverFace?.(call))?.kind ?? 'rest';
  const deletedFacts: string[] = [];
  let keptFacts = 0;
  let unknownFacts = 0;
  const forgotten = new Set([episode, ...(options.alsoForgotten ?? [])]);
  if (face === 'rest') {
    const { getEntityEdge, deleteEntityEdge } = api;
    if (getEntityEdge === undefined || deleteEntityEdge === undefined) {
      throw new Error('This Graphiti connection cannot read or delete facts by uuid, so the facts only this episode supports cannot be found; use a graphiti-client connection.');
    }
    const edges = options.entityEdges ?? (await listedEdges(api, episode, options, call));
    for (const edge of edges) {
      const fact = await getEntityEdge.call(api, edge, call).catch((error: unknown) => {
        if ((error as { status?: unknown }).status === 404) return undefined;
        throw error;
      });
      if (fact === undefined) continue;
      if (fact.episodes === undefined) unknownFacts++;
      else if (fact.episodes.every((supporting) => forgotten.has(supporting))) {
        await deleteEntityEdge.call(api, edge, call);
        deletedFacts.push(edge);
      } else keptFacts++;
    }
  }
  await api.deleteEpisode(episode, call);
  await options.sources?.remove([episode]);
  await options.tier?.forgetEpisodes([episode], deletedFacts, options.episodeName === undefined ? [] : [options.episodeName]);
  return { episode, face, deletedFacts, keptFacts, unknownFacts };
}

/** The facts `episode` produced, from a listing of its group (REST: no route reads one episode). */
async function listedEdges(api: EpisodeForgetApi, episode: string, options: EpisodeForgetOptions, call: GraphitiCallOptions): Promise<readonly string[]> {
  const groupId = options.groupId ?? (await options.sources?.find([episode]))?.get(episode)?.groupId;
  if (groupId === undefined) {
    throw new Error(
      `The group of episode ${episode} is not known on this machine (it was not delivered from here). Pass its group id (--group GROUP_ID): on REST the facts only this episode supports are found through its group.`,
    );
  }
  return (await api.getEpisodes(groupId, { lastN: EPISODES_SEARCHED }, call)).find((candidate) => candidate.uuid === episode)?.entity_edges ?? [];
}
