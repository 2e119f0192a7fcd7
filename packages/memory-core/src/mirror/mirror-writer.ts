// Sends one mirror record the way its server can take it, read from the server (`capabilities`):
//   MCP on main (add_triplet listed): each edge as `add_triplet` between the nodes' uuids, then the
//     record as a JSON episode (`add_memory`, `source: "json"`);
//   MCP releases without add_triplet: the JSON episode alone (its structure is left to extraction);
//   REST: each node through `POST /entity-node` (its uuid, its stable id as name, a summary), then
//     the record as one message episode (REST has no JSON episodes and no route for an edge between
//     given nodes: the edges exist only in that message's JSON until extraction reads them).
// Structure goes first, the episode last: the outbox confirms the record by the episode's name, so
// a record resent after a failure writes its structure again — the same uuids and facts, which the
// server merges (REST's MERGE on uuid; core's verbatim-edge fast path on MCP).
import type { GraphitiApi, GraphitiCallOptions, MirrorStructure, OutboxEntry } from '../ports.js';

/** What a server took of one record (for the audit and the bench). */
export interface MirrorWrite {
  readonly triplets: number;
  readonly entityNodes: number;
  readonly episode: 'json' | 'message';
}

export async function writeMirrorEntry(
  api: GraphitiApi,
  entry: OutboxEntry & { readonly mirror: MirrorStructure },
  options: GraphitiCallOptions,
): Promise<MirrorWrite> {
  const capabilities = api.capabilities === undefined ? undefined : await api.capabilities(options);
  const { groupId, message, mirror } = entry;
  const uuidOf = new Map(mirror.nodes.map((node) => [node.id, node.uuid]));
  let triplets = 0;
  let entityNodes = 0;
  if (capabilities?.triplets === true && api.addTriplet !== undefined) {
    for (const edge of mirror.edges) {
      const from = uuidOf.get(edge.from);
      const to = uuidOf.get(edge.to);
      await api.addTriplet(
        {
          source_node_name: edge.from,
          edge_name: edge.name,
          fact: edge.fact,
          target_node_name: edge.to,
          group_id: groupId,
          ...(from === undefined ? {} : { source_node_uuid: from }),
          ...(to === undefined ? {} : { target_node_uuid: to }),
        },
        options,
      );
      triplets += 1;
    }
  } else if (capabilities?.entityNodes === true && api.addEntityNode !== undefined) {
    for (const node of mirror.nodes) {
      await api.addEntityNode({ uuid: node.uuid, group_id: groupId, name: node.id, summary: node.summary }, options);
      entityNodes += 1;
    }
  }
  if (capabilities?.jsonEpisodes === true && api.addMemory !== undefined) {
    await api.addMemory(
      {
        name: message.name ?? '',
        episode_body: message.content,
        group_id: groupId,
        source: 'json',
        source_description: message.source_description ?? '',
        ...(message.timestamp === undefined ? {} : { reference_time: message.timestamp }),
      },
      options,
    );
    return { triplets, entityNodes, episode: 'json' };
  }
  await api.addMessages({ group_id: groupId, messages: [message] }, options);
  return { triplets, entityNodes, episode: 'message' };
}
