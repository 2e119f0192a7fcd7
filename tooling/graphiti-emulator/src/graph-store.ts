// The emulator's "database": episodes, facts (entity edges) and entity nodes, in memory. It
// survives `restartServer()` like Neo4j survives a restart of the upstream service.
import type { EntityNodeRecord, EpisodeRecord, FactRecord } from './types.js';

interface StoredEpisode {
  readonly record: EpisodeRecord;
  readonly validAtMs: number;
  /** Tie-breaker for equal `valid_at`: the order episodes were stored in. */
  readonly sequence: number;
}

export class GraphStore {
  private readonly episodesByUuid = new Map<string, StoredEpisode>();
  private readonly factsByUuid = new Map<string, { readonly record: FactRecord; readonly groupId: string }>();
  private readonly nodesByUuid = new Map<string, EntityNodeRecord>();
  private sequence = 0;

  putEpisode(record: EpisodeRecord, validAtMs: number): void {
    const existing = this.episodesByUuid.get(record.uuid);
    this.episodesByUuid.set(record.uuid, { record, validAtMs, sequence: existing?.sequence ?? this.sequence++ });
  }

  getEpisode(uuid: string): EpisodeRecord | undefined {
    return this.episodesByUuid.get(uuid)?.record;
  }

  deleteEpisode(uuid: string): boolean {
    return this.episodesByUuid.delete(uuid);
  }

  /** Oldest first by `valid_at`, then by storage order; `lastN` keeps the newest N, still oldest first. */
  episodes(options: { groupId?: string; validUntilMs?: number; lastN?: number } = {}): EpisodeRecord[] {
    const selected = [...this.episodesByUuid.values()]
      .filter((episode) => options.groupId === undefined || episode.record.group_id === options.groupId)
      .filter((episode) => options.validUntilMs === undefined || episode.validAtMs <= options.validUntilMs)
      .sort((left, right) => left.validAtMs - right.validAtMs || left.sequence - right.sequence)
      .map((episode) => episode.record);
    if (options.lastN === undefined) return selected;
    return options.lastN <= 0 ? [] : selected.slice(-options.lastN);
  }

  putFact(record: FactRecord, groupId: string): void {
    this.factsByUuid.set(record.uuid, { record, groupId });
  }

  getFact(uuid: string): FactRecord | undefined {
    return this.factsByUuid.get(uuid)?.record;
  }

  deleteFact(uuid: string): boolean {
    return this.factsByUuid.delete(uuid);
  }

  groupOfFact(uuid: string): string | undefined {
    return this.factsByUuid.get(uuid)?.groupId;
  }

  /**
   * The MCP face's `delete_episode` (graphiti-core's `remove_episode`): the episode and the facts
   * only it supports go; facts other episodes also support stay. False when the uuid is unknown.
   */
  removeEpisode(uuid: string): boolean {
    if (!this.episodesByUuid.delete(uuid)) return false;
    for (const [factUuid, { record }] of this.factsByUuid) {
      if (!record.episodes.includes(uuid)) continue;
      if (record.episodes.length === 1) this.factsByUuid.delete(factUuid);
      else record.episodes = record.episodes.filter((episode) => episode !== uuid);
    }
    return true;
  }

  /** Entity nodes of the given groups (every group when undefined), in creation order. */
  nodes(groupIds?: readonly string[]): EntityNodeRecord[] {
    return [...this.nodesByUuid.values()].filter((node) => groupIds === undefined || groupIds.includes(node.group_id));
  }

  /** Facts in creation order; `groupIds` undefined means every group. */
  facts(groupIds?: readonly string[]): FactRecord[] {
    return [...this.factsByUuid.values()]
      .filter((fact) => groupIds === undefined || groupIds.includes(fact.groupId))
      .map((fact) => fact.record);
  }

  putNode(record: EntityNodeRecord): void {
    this.nodesByUuid.set(record.uuid, record);
  }

  getNode(uuid: string): EntityNodeRecord | undefined {
    return this.nodesByUuid.get(uuid);
  }

  findNodeByName(groupId: string, name: string): EntityNodeRecord | undefined {
    const wanted = name.toLowerCase();
    for (const node of this.nodesByUuid.values()) {
      if (node.group_id === groupId && node.name.toLowerCase() === wanted) return node;
    }
    return undefined;
  }

  /** Every node, edge and episode of the group, as upstream's `delete_group`. */
  deleteGroup(groupId: string): void {
    for (const fact of this.facts([groupId])) this.factsByUuid.delete(fact.uuid);
    for (const [uuid, node] of this.nodesByUuid) if (node.group_id === groupId) this.nodesByUuid.delete(uuid);
    for (const [uuid, episode] of this.episodesByUuid) {
      if (episode.record.group_id === groupId) this.episodesByUuid.delete(uuid);
    }
  }

  clear(): void {
    this.episodesByUuid.clear();
    this.factsByUuid.clear();
    this.nodesByUuid.clear();
  }
}
