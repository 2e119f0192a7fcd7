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

/** One episode to add, whichever face it came through (REST `/messages` or MCP `add_memory`). */
export interface EpisodeJob {
  readonly groupId: string;
  /** An existing episode to re-process; `null` for a new one. */
  readonly uuid: string | null;
  readonly name: string;
  /** The episode content as stored. */
  readonly body: string;
  /** The text the stand-in extraction reads (the message without its role prefix). */
  readonly extractFrom: string;
  readonly source: string;
  readonly sourceDescription: string;
  /** The episode's reference time (`valid_at`), epoch milliseconds. */
  readonly referenceMs: number;
}

export function processMessage(store: GraphStore, job: MessageJob, nowMs: number): EpisodeRecord {
  const { groupId, message } = job;
  return processEpisode(
    store,
    {
      groupId,
      uuid: message.uuid,
      name: message.name,
      body: `${message.role ?? ''}(${message.role_type}): ${message.content}`,
      extractFrom: message.content,
      source: 'message',
      sourceDescription: message.source_description,
      referenceMs: message.timestamp,
    },
    nowMs,
  );
}

export function processEpisode(store: GraphStore, job: EpisodeJob, nowMs: number): EpisodeRecord {
  const { groupId } = job;
  if (!isValidGroupId(groupId)) {
    throw new Error(`GroupIdValidationError: group_id "${groupId}" must match ^[a-zA-Z0-9_-]+$`);
  }
  let episode: EpisodeRecord;
  if (job.uuid !== null) {
    // Upstream loads the episode to re-process it; an unknown uuid raises NodeNotFoundError (#1646).
    const existing = store.getEpisode(job.uuid);
    if (existing === undefined) throw new Error(`NodeNotFoundError: node ${job.uuid} not found`);
    episode = existing;
  } else {
    episode = {
      uuid: randomUUID(),
      name: job.name,
      group_id: groupId,
      labels: [],
      created_at: toPythonIsoFormat(nowMs),
      source: job.source,
      source_description: job.sourceDescription,
      content: job.body,
      valid_at: toPythonIsoFormat(job.referenceMs),
      entity_edges: [],
    };
    store.putEpisode(episode, job.referenceMs);
  }
  extractFacts(store, episode, job.extractFrom, job.referenceMs, nowMs);
  return episode;
}

function extractFacts(store: GraphStore, episode: EpisodeRecord, text: string, referenceMs: number, nowMs: number): void {
  const groupId = episode.group_id;
  for (const statement of extractStatements(text)) {
    for (const older of store.facts([groupId])) {
      if (older.invalid_at !== null || older.expired_at !== null) continue;
      const olderStatement = extractStatements(older.fact)[0];
      if (olderStatement === undefined) continue;
      const olderValidAtMs = older.valid_at === null ? 0 : Date.parse(older.valid_at);
      if (contradicts(statement, referenceMs, { ...olderStatement, validAtMs: olderValidAtMs })) {
        older.invalid_at = toPythonIsoFormat(referenceMs);
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
        valid_at: toPythonIsoFormat(referenceMs),
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
