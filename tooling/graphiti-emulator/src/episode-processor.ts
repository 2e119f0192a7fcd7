// What one worker job does: upstream's `add_episode` for one message, with the stand-in
// extraction. It throws where upstream throws, and the worker treats a throw as its death.
import { randomUUID } from 'node:crypto';
import { contradicts, extractStatements, nameEmbedding } from './extraction.js';
import type { GraphStore } from './graph-store.js';
import { isValidGroupId } from './group-id.js';
import type { MessageInput } from './request-models.js';
import { toPythonIsoFormat } from './time-format.js';
import type { EntityNodeRecord, EpisodeRecord } from './types.js';

export interface MessageJob {
  readonly groupId: string;
  readonly message: MessageInput;
}

export function processMessage(store: GraphStore, job: MessageJob, nowMs: number): EpisodeRecord {
  const { groupId, message } = job;
  if (!isValidGroupId(groupId)) {
    throw new Error(`GroupIdValidationError: group_id "${groupId}" must match ^[a-zA-Z0-9_-]+$`);
  }
  let episode: EpisodeRecord;
  if (message.uuid !== null) {
    // Upstream loads the episode to re-process it; an unknown uuid raises NodeNotFoundError (#1646).
    const existing = store.getEpisode(message.uuid);
    if (existing === undefined) throw new Error(`NodeNotFoundError: node ${message.uuid} not found`);
    episode = existing;
  } else {
    episode = {
      uuid: randomUUID(),
      name: message.name,
      group_id: groupId,
      labels: [],
      created_at: toPythonIsoFormat(nowMs),
      source: 'message',
      source_description: message.source_description,
      content: `${message.role ?? ''}(${message.role_type}): ${message.content}`,
      valid_at: toPythonIsoFormat(message.timestamp),
      entity_edges: [],
    };
    store.putEpisode(episode, message.timestamp);
  }
  extractFacts(store, episode, message, nowMs);
  return episode;
}

function extractFacts(store: GraphStore, episode: EpisodeRecord, message: MessageInput, nowMs: number): void {
  const groupId = episode.group_id;
  for (const statement of extractStatements(message.content)) {
    for (const older of store.facts([groupId])) {
      if (older.invalid_at !== null || older.expired_at !== null) continue;
      const olderStatement = extractStatements(older.fact)[0];
      if (olderStatement === undefined) continue;
      const olderValidAtMs = older.valid_at === null ? 0 : Date.parse(older.valid_at);
      if (contradicts(statement, message.timestamp, { ...olderStatement, validAtMs: olderValidAtMs })) {
        older.invalid_at = toPythonIsoFormat(message.timestamp);
        older.expired_at = toPythonIsoFormat(nowMs);
      }
    }
    const source = nodeFor(store, groupId, statement.subject, nowMs);
    const target = statement.object === '' ? source : nodeFor(store, groupId, statement.object, nowMs);
    const uuid = randomUUID();
    store.putFact(
      {
        uuid,
        name: statement.relation,
        fact: statement.sentence,
        valid_at: toPythonIsoFormat(message.timestamp),
        invalid_at: null,
        created_at: toPythonIsoFormat(nowMs),
        expired_at: null,
        source_node_uuid: source.uuid,
        target_node_uuid: target.uuid,
        episodes: [episode.uuid],
      },
      groupId,
    );
    episode.entity_edges.push(uuid);
  }
}

function nodeFor(store: GraphStore, groupId: string, name: string, nowMs: number): EntityNodeRecord {
  const existing = store.findNodeByName(groupId, name);
  if (existing !== undefined) return existing;
  const node: EntityNodeRecord = {
    uuid: randomUUID(),
    name,
    group_id: groupId,
    labels: ['Entity'],
    created_at: toPythonIsoFormat(nowMs),
    name_embedding: nameEmbedding(name),
    summary: '',
    attributes: {},
  };
  store.putNode(node);
  return node;
}
