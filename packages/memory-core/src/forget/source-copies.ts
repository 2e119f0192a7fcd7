// One source, every copy: a captured turn or digest is sent under one stable name (`<app>.turn.<id>.<role>`,
// `<app>.digest.<session>.<first turn>`) to its session group and its workspace group, so forgetting
// the source means deleting every episode of that name in each group it went to (twice in one group
// when a resend was stored as well as the send it replaced). Those groups come
// from the delivery ledger (its keys are `<group>:<name>`), else from the group registry (a session
// group and its workspace's group); neither face looks an episode up by name, so each group is listed.
import type { Episode } from '@graphiti-memory/graphiti-client';
import type { GraphitiApi, GraphitiCallOptions } from '../ports.js';
import type { GroupRecord } from '../registry/group-registry.js';

/** One copy of a source: an episode in one group. */
export interface SourceCopy {
  readonly episode: string;
  readonly groupId: string;
  /** The facts it produced, as its group's listing says (REST needs them to find the facts only it supports). */
  readonly entityEdges?: readonly string[];
}

/** How many of a group's newest episodes are read to find a copy. */
export const SOURCE_COPY_LISTING = 1000;

/** The groups a message named `name` was delivered to, from the delivery ledger's keys (`<group>:<name>`). */
export function groupsDeliveredTo(ledgerKeys: readonly string[], name: string): string[] {
  const groups = new Set<string>();
  const suffix = `:${name}`;
  for (const key of ledgerKeys) {
    const separator = key.indexOf(':');
    if (separator > 0 && key.endsWith(suffix) && key.length === separator + suffix.length) groups.add(key.slice(0, separator));
  }
  return [...groups];
}

/**
 * The groups the registry relates to `groupId`: a session group's workspace group; a workspace
 * group's session groups. Where a source may have copies when the ledger does not know it.
 */
export function relatedGroups(records: readonly GroupRecord[], groupId: string): string[] {
  const own = records.find((record) => record.groupId === groupId);
  if (own?.scope === 'session') return own.workspaceKey === undefined ? [] : [own.workspaceKey];
  if (own?.scope === 'workspace' || own === undefined) {
    return records.filter((record) => record.scope === 'session' && record.workspaceKey === groupId).map((record) => record.groupId);
  }
  return [];
}

export interface SourceCopiesRequest {
  readonly episode: string;
  readonly groupId: string;
  /** Where else the source may be, given its name (ledger first, registry as the fallback). */
  readonly candidates: (name: string) => Promise<readonly string[]>;
  readonly callOptions?: GraphitiCallOptions;
}

export interface SourceCopies {
  /** The source's episode name; `undefined` when its group does not list it. */
  readonly name: string | undefined;
  /** The episode named first, then its copies. */
  readonly copies: readonly SourceCopy[];
}

/**
 * The episode and every copy of it: the episodes of the same name in the candidate groups. An
 * episode its group does not list (deleted meanwhile, or older than the listing) is returned alone.
 */
export async function sourceCopies(api: Pick<GraphitiApi, 'getEpisodes'>, request: SourceCopiesRequest): Promise<SourceCopies> {
  const call = request.callOptions ?? {};
  const listing = await api.getEpisodes(request.groupId, { lastN: SOURCE_COPY_LISTING }, call);
  const own = listing.find((candidate) => candidate.uuid === request.episode);
  if (own === undefined) return { name: undefined, copies: [{ episode: request.episode, groupId: request.groupId }] };
  const copies: SourceCopy[] = [copyOf(own, request.groupId)];
  // Unnamed episodes (written by another client) cannot be matched: only the one named is forgotten.
  if (own.name === '') return { name: undefined, copies };
  // The same message stored twice in its own group (a resend whose first send was stored after all;
  // delivery is at least once) is a copy too: left behind, the forgotten text would still be recalled.
  for (const episode of listing) if (episode.name === own.name && episode.uuid !== own.uuid) copies.push(copyOf(episode, request.groupId));
  for (const groupId of await request.candidates(own.name)) {
    if (groupId === request.groupId) continue;
    const episodes = await api.getEpisodes(groupId, { lastN: SOURCE_COPY_LISTING }, call);
    for (const episode of episodes) if (episode.name === own.name) copies.push(copyOf(episode, groupId));
  }
  return { name: own.name, copies };
}

function copyOf(episode: Episode, groupId: string): SourceCopy {
  return { episode: episode.uuid, groupId, entityEdges: episode.entity_edges };
}
