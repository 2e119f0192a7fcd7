// Who wrote a team fact: the display name stored in the promoted episode the fact came from. The
// team group is listed only when a recalled team fact cites an episode not looked up before: an
// episode's author never changes, so what a listing found (or did not find) is kept for later
// prompts, and a prompt whose search brings no team fact lists nothing.
//
// Graphiti has no authentication: anyone who reaches the server can write a promotion-shaped
// episode naming any author. An author is verified only when the episode is this user's own
// promotion (its name is the one this install gives it, from the user's own key); every other team
// fact is marked unverified (`[team · Alice (unverified)]`), and so is one whose episodes could not
// be looked up.
import type { Episode, FactResult } from '@graphiti-memory/graphiti-client';
import type { GraphitiApi, GraphitiCallOptions } from '../ports.js';
import { parsePromotionEpisode } from '../promotion/episode-format.js';
import { promotionMessageName } from '../promotion/promotion-name.js';

/** Team episodes read to name the authors of team facts (REST: the newest; MCP: by uuid). */
export const TEAM_AUTHOR_EPISODES = 200;
/** Episodes remembered per team group (the oldest looked-up go first): bounded in a long-lived host. */
const REMEMBERED_PER_GROUP = 5_000;

interface KnownEpisode {
  readonly author: string | null;
  /** This user's own promotion: the one case where the author is known to be who it says. */
  readonly own: boolean;
}

/**
 * Whether `episode` is a team promotion this user made: its name is the one `promotionMessageName`
 * gives the stored kind and text with `ownUserGroup` (the user's own key) as the author's key.
 */
export async function isOwnTeamPromotion(episode: Pick<Episode, 'name' | 'content'>, ownUserGroup: string | undefined): Promise<boolean> {
  if (ownUserGroup === undefined) return false;
  const stored = parsePromotionEpisode(episode);
  if (stored === undefined || stored.scope !== 'team') return false;
  return (await promotionMessageName(stored.kind, 'team', stored.text, ownUserGroup)) === episode.name;
}

export class TeamAuthors {
  /** Per team group: episode uuid → what is known of it (a cited episode the listing did not hold: no author, not own). */
  readonly #known = new Map<string, Map<string, KnownEpisode>>();

  /**
   * `facts` with `author` set where their episodes name one and `unverified` unless one of their
   * episodes is this user's own promotion; lists the group only for episodes not looked up yet.
   */
  async withAuthors(
    api: Pick<GraphitiApi, 'getEpisodes'>,
    groupId: string,
    facts: readonly FactResult[],
    options: GraphitiCallOptions,
    ownUserGroup?: string,
  ): Promise<readonly FactResult[]> {
    const known = this.#known.get(groupId) ?? new Map<string, KnownEpisode>();
    this.#known.set(groupId, known);
    const unknown = new Set(facts.flatMap((fact) => fact.episodes ?? []).filter((uuid) => !known.has(uuid)));
    if (unknown.size > 0) {
      try {
        for (const episode of await api.getEpisodes(groupId, { lastN: TEAM_AUTHOR_EPISODES }, options)) {
          remember(known, episode.uuid, { author: parsePromotionEpisode(episode)?.author ?? null, own: await isOwnTeamPromotion(episode, ownUserGroup) });
        }
        // Cited but not listed (older than the listing): a later listing would not hold it either.
        for (const uuid of unknown) if (!known.has(uuid)) remember(known, uuid, { author: null, own: false });
      } catch {
        // Without the listing, team facts are labelled `[team (unverified)]`: the facts matter more than their author.
      }
    }
    return facts.map((fact) => {
      const episodes = (fact.episodes ?? []).map((uuid) => known.get(uuid));
      const author = episodes.map((episode) => episode?.author).find((name): name is string => typeof name === 'string');
      const verified = episodes.some((episode) => episode?.own === true);
      return { ...fact, ...(author === undefined ? {} : { author }), ...(verified ? {} : { unverified: true }) } as FactResult;
    });
  }
}

function remember(known: Map<string, KnownEpisode>, uuid: string, episode: KnownEpisode): void {
  known.delete(uuid);
  known.set(uuid, episode);
  if (known.size > REMEMBERED_PER_GROUP) {
    const oldest = known.keys().next().value;
    if (oldest !== undefined) known.delete(oldest);
  }
}
