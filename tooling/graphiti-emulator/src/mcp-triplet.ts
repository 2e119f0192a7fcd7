// Upstream's `add_triplet` tool (mcp_server/src/graphiti_mcp_server.py on main since 29a7565,
// 2026-06-07, #1553) over graphiti-core's `Graphiti.add_triplet`: one edge written directly, no
// episode. Each end is found by the uuid given (an existing node), else resolved by name among the
// group's nodes (core's `resolve_extracted_nodes` deduplicates by name; the emulator compares names
// case-insensitively), else created with the given uuid (or a new one). An edge whose two ends and
// fact already exist verbatim is reused (core's fast path in `resolve_extracted_edge`), so writing
// the same triplet twice leaves one edge. The answer is `TripletResponse`: message, nodes, edges.
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { nameEmbedding } from './extraction.js';
import { answer, failure, nodeResult } from './mcp-answers.js';
import type { McpToolContext } from './mcp-tools.js';
import { toPythonIsoFormat } from './time-format.js';
import type { EntityNodeRecord, FactRecord } from './types.js';

/** graphiti-core's `_normalize_string_exact`: lower case, whitespace collapsed. */
function normalizedFact(fact: string): string {
  return fact.toLowerCase().replace(/\s+/g, ' ').trim();
}

function edgeResult(edge: FactRecord, groupId: string): Record<string, unknown> {
  return {
    uuid: edge.uuid,
    name: edge.name,
    fact: edge.fact,
    source_node_uuid: edge.source_node_uuid,
    target_node_uuid: edge.target_node_uuid,
    group_id: groupId,
    created_at: edge.created_at,
    valid_at: edge.valid_at,
    invalid_at: edge.invalid_at,
  };
}

function resolveNode(context: McpToolContext, groupId: string, name: string, uuid: string | null | undefined): EntityNodeRecord {
  const byUuid = uuid === undefined || uuid === null ? undefined : context.store.getNode(uuid);
  if (byUuid !== undefined) return byUuid;
  const byName = context.store.findNodeByName(groupId, name);
  if (byName !== undefined) return byName;
  const node: EntityNodeRecord = {
    uuid: uuid || randomUUID(),
    name,
    group_id: groupId,
    labels: ['Entity'],
    created_at: toPythonIsoFormat(context.now()),
    name_embedding: nameEmbedding(name),
    summary: '',
    attributes: {},
  };
  context.store.putNode(node);
  return node;
}

export function registerAddTriplet(server: McpServer, context: McpToolContext): void {
  server.registerTool(
    'add_triplet',
    {
      description: 'Directly add a single fact triplet (source entity -> fact -> target entity).',
      inputSchema: {
        source_node_name: z.string(),
        edge_name: z.string(),
        fact: z.string(),
        target_node_name: z.string(),
        group_id: z.string().nullable().optional(),
        source_node_uuid: z.string().nullable().optional(),
        target_node_uuid: z.string().nullable().optional(),
      },
    },
    (args) => {
      const groupId = args.group_id || context.defaultGroupId;
      if (!groupId) return failure('No group_id provided and no default group_id is configured');
      const source = resolveNode(context, groupId, args.source_node_name, args.source_node_uuid);
      const target = resolveNode(context, groupId, args.target_node_name, args.target_node_uuid);
      const wanted = normalizedFact(args.fact);
      let edge = context.store
        .facts([groupId])
        .find((fact) => fact.source_node_uuid === source.uuid && fact.target_node_uuid === target.uuid && normalizedFact(fact.fact) === wanted);
      if (edge === undefined) {
        const now = toPythonIsoFormat(context.now());
        edge = {
          uuid: randomUUID(),
          name: args.edge_name,
          fact: args.fact,
          valid_at: now,
          invalid_at: null,
          created_at: now,
          expired_at: null,
          source_node_uuid: source.uuid,
          target_node_uuid: target.uuid,
          episodes: [],
        };
        context.store.putFact(edge, groupId);
      }
      return answer({
        message: `Triplet '${args.source_node_name} -[${args.edge_name}]-> ${args.target_node_name}' added`,
        nodes: [nodeResult(source), nodeResult(target)],
        edges: [edgeResult(edge, groupId)],
      });
    },
  );
}
