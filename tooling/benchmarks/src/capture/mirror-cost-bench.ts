// What the structured mirror (seed 001) costs next to the digest it rides beside, on the corpus of
// real-format Claude Code and VS Code chat sessions: each session is captured as the product
// captures it by default (session digests, compact filter, scopes session + workspace) with
// `mirror.enabled` on, and the outbox is read. The digest's writes and bytes per turn, measured in
// the same run, are the baseline. Writes count every request the mirror makes per turn on each face
// (MCP main: one `add_triplet` per edge plus the JSON episode; REST: one `/entity-node` per node
// plus the message episode); bytes are the request bodies' UTF-8 size (JSON), on MCP main.
import { GraphitiClient } from '@graphiti-memory/graphiti-client';
import { Ingestion, IngestionStorage, parseTranscript, TurnMirror, type ChatTurn, type OutboxRecord } from '@graphiti-memory/memory-core';
import { benchResult, round, type BenchResult } from '../bench-result.js';
import { benchMemory } from '../core/stand-ins.js';
import { CAPTURE_CORPUS, type CorpusSession } from './capture-cost-bench.js';

export const MIRROR_BENCH_NAME = 'capture.mirror.bytes_per_turn_ratio';
/**
 * The mirror may send at most this many times the digest's bytes per turn. It carries each turn's
 * own record (the filtered text, capped per node, hashes, one fact per edge) where the digest
 * carries the filtered text once per group: on this corpus that measured 4.35× (2026-11-29). The
 * goal is a ceiling that catches the record growing without bound (tool output or file contents
 * leaking in, an edge per line), not a target.
 */
export const MIRROR_BYTES_GOAL = 6;

const ENDPOINT = 'http://127.0.0.1:8000';
const encoder = new TextEncoder();
const bytesOf = (value: unknown): number => encoder.encode(JSON.stringify(value)).length;

interface MirrorCost {
  turns: number;
  digestWrites: number;
  digestBytes: number;
  mirrorWritesMcp: number;
  mirrorWritesRest: number;
  mirrorBytes: number;
}

function turnsOf(session: CorpusSession): ChatTurn[] {
  const parsed = parseTranscript(session.text, session.format);
  if (parsed === undefined || parsed.turns.length === 0) throw new Error(`mirror bench: the corpus session ${session.name} parsed to no turns; the corpus or its parser is broken`);
  return parsed.turns;
}

/** What one mirror record sends on MCP main: the episode (`add_memory` arguments) and one `add_triplet` per edge. */
function mirrorRequestBytes(record: OutboxRecord): number {
  const mirror = record.mirror;
  if (mirror === undefined) return 0;
  const uuidOf = new Map(mirror.nodes.map((node) => [node.id, node.uuid]));
  let bytes = bytesOf({ name: record.message.name, episode_body: record.message.content, group_id: record.groupId, source: 'json', source_description: record.message.source_description, reference_time: record.message.timestamp });
  for (const edge of mirror.edges) {
    bytes += bytesOf({ source_node_name: edge.from, edge_name: edge.name, fact: edge.fact, target_node_name: edge.to, group_id: record.groupId, source_node_uuid: uuidOf.get(edge.from), target_node_uuid: uuidOf.get(edge.to) });
  }
  return bytes;
}

async function sessionCost(session: CorpusSession, cost: MirrorCost): Promise<void> {
  const turns = turnsOf(session);
  const client = new GraphitiClient({ baseUrl: ENDPOINT });
  const container = benchMemory({
    settings: { enabled: true, endpoint: ENDPOINT, scopes: 'both', maxQueueSize: 100_000, mirror: { enabled: true } },
    consentFor: ENDPOINT,
    api: client,
    accountId: 'bench-account',
  });
  const ingestion = container.get<Ingestion>(Ingestion);
  try {
    for (const turn of turns) ingestion.enqueue(turn);
    ingestion.endSessions(turns.map((turn) => turn.sessionId));
    await container.get(TurnMirror).settled();
    await ingestion.settled();
    const records = (await container.get<IngestionStorage>(IngestionStorage).current()?.outbox.pending(100_000)) ?? [];
    const mirrored = records.filter((record) => record.mirror !== undefined);
    if (mirrored.length !== turns.length) throw new Error(`mirror bench: ${session.name} mirrored ${mirrored.length} of ${turns.length} turns; the mirror is broken`);
    cost.turns += turns.length;
    for (const record of records) {
      if (record.mirror === undefined) {
        cost.digestWrites += 1;
        cost.digestBytes += bytesOf(record.message);
      } else {
        cost.mirrorWritesMcp += 1 + record.mirror.edges.length;
        cost.mirrorWritesRest += 1 + record.mirror.nodes.length;
        cost.mirrorBytes += mirrorRequestBytes(record);
      }
    }
  } finally {
    await ingestion.dispose();
    await client.close();
  }
}

/** The mirror's bytes per turn against the digest's, with both faces' writes per turn in the details. */
export async function measureMirrorCost(corpus: readonly CorpusSession[] = CAPTURE_CORPUS): Promise<BenchResult<typeof MIRROR_BENCH_NAME>> {
  const cost: MirrorCost = { turns: 0, digestWrites: 0, digestBytes: 0, mirrorWritesMcp: 0, mirrorWritesRest: 0, mirrorBytes: 0 };
  for (const session of corpus) await sessionCost(session, cost);
  const perTurn = (value: number): number => round(value / cost.turns);
  return benchResult<typeof MIRROR_BENCH_NAME>({
    name: MIRROR_BENCH_NAME,
    value: cost.mirrorBytes / cost.turns,
    unit: 'bytes per turn',
    baseline: cost.digestBytes / cost.turns,
    goal: MIRROR_BYTES_GOAL,
    details: {
      turns: cost.turns,
      sessions: corpus.length,
      mirror_writes_per_turn_mcp_main: perTurn(cost.mirrorWritesMcp),
      mirror_writes_per_turn_rest: perTurn(cost.mirrorWritesRest),
      mirror_writes_per_turn_mcp_released: 1,
      digest_writes_per_turn: perTurn(cost.digestWrites),
      mirror_bytes_per_turn: perTurn(cost.mirrorBytes),
      digest_bytes_per_turn: perTurn(cost.digestBytes),
    },
  });
}
