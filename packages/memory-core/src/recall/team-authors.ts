// Who wrote a team fact: the display name stored in the promoted episode the fact came from. The
// team group is listed only when a recalled team fact cites an episode not looked up before: an
// episode's author never changes, so what a listing found (or did not find) is kept for later
// prompts, and a prompt whose search brings no team fact lists nothing.
import type { FactResult } from '@graphiti-memory/graphiti-client';
import type { GraphitiApi, GraphitiCallOptions } from '../ports.js';
import { parsePromotionEpisode } from '../promotion/episode-format.js';

/** Team episodes read to name the authors of team facts (REST: the newest; MCP: by uuid). */
export const TEAM_AUTHOR_EPISODES = 200;
/** Episodes remembered per team group (the oldest looked-up go first): bounded in a long-lived host. */
const REMEMBERED_PER_GROUP = 5_000;

export class TeamAuthors {
  /** Per team group: episode uuid → its author, or `null` when it has none or the listing did not hold it. */
  readonly #known = new Map<string, Map<string, string | null>>();

  /** `facts` with `author` set where their episodes name one; lists the group only for episodes not looked up yet. */
  async withAuthors(api: Pick<GraphitiApi, 'getEpisodes'>, groupId: string, facts: readonly FactResult[], options: GraphitiCallOptions): Promise<readonly FactResult[]> {
    const known = this.#known.get(groupId) ?? new Map<string, string | null>();
    this.#known.set(groupId, known);
    const unknown = new Set(facts.flatMap((fact) => fact.episodes ?? []).filter((uuid) => !known.has(uuid)));
    if (unknown.size > 0) {
      try {
        for (const episode of await api.getEpisodes(groupId, { lastN: TEAM_AUTHOR_EPISODES }, options)) {
          remember(known, episode.uuid, parsePromotionEpisode(episode)?.author ?? null);
        }
        // Cited but not listed (older than the listing): a later listing would not hold it either.
        for (const uuid of unknown) if (!known.has(uuid)) remember(known, uuid, null);
      } catch {
        // Without the listing, team facts are labelled `[team]`: the facts matter more than their author.
      }
    }
    return facts.map((fact) => {
      const author = fact.episodes?.map((uuid) => known.get(uuid)).find((name): name is string => typeof name === 'string');
      return author === undefined ? fact : ({ ...fact, author } as FactResult);
    });
  }
}

function remember(known: Map<string, string | null>, uuid: string, author: string | null): void {
  known.delete(uuid);
  known.set(uuid, author);
  if (known.size > REMEMBERED_PER_GROUP) {
    const oldest = known.keys().next().value;
    if (oldest !== undefined) known.delete(oldest);
  }
}
