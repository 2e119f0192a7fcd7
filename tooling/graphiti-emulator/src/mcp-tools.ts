// The tools of upstream's MCP server (mcp_server/src/graphiti_mcp_server.py), over the emulator's
// graph: same names, parameters and answers, including failures reported as a successful tool
// result `{ "error": "…" }`. Each session gets its own McpServer (the SDK binds one per transport).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { EpisodeJob } from './episode-processor.js';
import type { GraphStore } from './graph-store.js';
import type { GroupQueues } from './group-queues.js';
import { isValidGroupId } from './group-id.js';
import { searchFacts } from './search.js';
import { searchTerms } from './text-tokens.js';
import { answer, failure, nodeResult } from './mcp-answers.js';
import { registerAddTriplet } from './mcp-triplet.js';
import type { FactRecord, McpRelease } from './types.js';

export interface McpToolContext {
  readonly store: GraphStore;
  readonly queues: GroupQueues<EpisodeJob>;
  /** Upstream's `config.graphiti.group_id` (default `main`): used when a tool gets no group. */
  readonly defaultGroupId: string;
  /** Which upstream release the tools follow (`main` has `add_triplet` and more `add_memory` arguments). */
  readonly release: McpRelease;
  now(): number;
}

/** The tool names, for fault plans and the request log. */
export const MCP_TOOL_NAMES = [
  'add_memory',
  'search_nodes',
  'search_memory_facts',
  'delete_entity_edge',
  'delete_episode',
  'get_entity_edge',
  'get_episodes',
  'clear_graph',
  'get_status',
  'add_triplet',
] as const;
export type McpToolName = (typeof MCP_TOOL_NAMES)[number];

const ADD_MEMORY_V1_0_2 = {
  name: z.string(),
  episode_body: z.string(),
  group_id: z.string().nullable().optional(),
  source: z.string().optional(),
  source_description: z.string().optional(),
  uuid: z.string().nullable().optional(),
};

const ADD_MEMORY_MAIN = {
  ...ADD_MEMORY_V1_0_2,
  reference_time: z.string().nullable().optional(),
  excluded_entity_types: z.array(z.string()).nullable().optional(),
  custom_extraction_instructions: z.string().nullable().optional(),
  previous_episode_uuids: z.array(z.string()).nullable().optional(),
  update_communities: z.boolean().optional(),
  saga: z.string().nullable().optional(),
  saga_previous_episode_uuid: z.string().nullable().optional(),
};

interface AddMemoryArguments {
  readonly name: string;
  readonly episode_body: string;
  readonly group_id?: string | null;
  readonly source?: string;
  readonly source_description?: string;
  readonly uuid?: string | null;
  readonly reference_time?: string | null;
}

/** The string values of a JSON document, one sentence each; the text itself when it is not JSON. */
function jsonSentences(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body) as unknown;
  } catch {
    return body;
  }
  const sentences: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') sentences.push(value.trim().replace(/[.!?]*$/, '.'));
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(parsed);
  return sentences.join(' ');
}

const groupIdsParameter = z.union([z.string(), z.array(z.string())]).nullable().optional();

/** upstream's `coerce_group_ids` plus the fallback to the configured default group. */
function effectiveGroupIds(context: McpToolContext, groupIds: string | string[] | null | undefined): string[] {
  const coerced = typeof groupIds === 'string' ? (groupIds === '' ? null : [groupIds]) : (groupIds ?? null);
  if (coerced !== null) return coerced;
  return context.defaultGroupId === '' ? [] : [context.defaultGroupId];
}

/** Python's `datetime.fromisoformat` after upstream's `Z` handling; naive means UTC. */
function parseReferenceTime(value: string): number | undefined {
  const trimmed = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?([Zz]|[+-]\d{2}:?\d{2})?$/.test(trimmed)) return undefined;
  const hasZone = /([Zz]|[+-]\d{2}:?\d{2})$/.test(trimmed) && trimmed.length > 10;
  const parsed = Date.parse(hasZone ? trimmed.replace(' ', 'T') : `${trimmed.replace(' ', 'T')}${trimmed.length > 10 ? 'Z' : 'T00:00:00Z'}`);
  return Number.isNaN(parsed) ? undefined : parsed;
}

/** An edge as `format_fact_result` dumps it: every field of graphiti-core's EntityEdge. */
function factAnswer(context: McpToolContext, fact: FactRecord): Record<string, unknown> {
  return {
    uuid: fact.uuid,
    group_id: context.store.groupOfFact(fact.uuid) ?? '',
    source_node_uuid: fact.source_node_uuid,
    target_node_uuid: fact.target_node_uuid,
    created_at: fact.created_at,
    name: fact.name,
    fact: fact.fact,
    episodes: fact.episodes,
    expired_at: fact.expired_at,
    valid_at: fact.valid_at,
    invalid_at: fact.invalid_at,
    reference_time: fact.valid_at,
    attributes: {},
  };
}

/** The role prefix the client writes (`name(role): text`) is not part of what was said. */
function withoutRolePrefix(body: string): string {
  return body.replace(/^[^\n()]*\((user|assistant|system)\): /, '');
}

export function createMcpServer(context: McpToolContext): McpServer {
  const server = new McpServer(
    { name: 'Graphiti Agent Memory', version: 'emulator' },
    { instructions: 'EMULATOR of the Graphiti MCP server: in-memory, lexical stand-in extraction. Not Graphiti.' },
  );

  server.registerTool(
    'add_memory',
    {
      description: 'Add an episode to memory (queued; processed per group in order).',
      // mcp-v1.0.2's signature, plus what upstream's main added in 29a7565 (#1553). Arguments a
      // release does not declare are dropped, as FastMCP's argument model drops them.
      inputSchema: context.release === 'main' ? ADD_MEMORY_MAIN : ADD_MEMORY_V1_0_2,
    },
    (given) => {
      const args = given as AddMemoryArguments;
      let referenceMs = context.now();
      if (args.reference_time !== undefined && args.reference_time !== null) {
        const parsed = parseReferenceTime(args.reference_time);
        if (parsed === undefined) {
          return failure(`Invalid reference_time: Invalid isoformat string: '${args.reference_time}'`);
        }
        referenceMs = parsed;
      }
      const groupId = args.group_id || context.defaultGroupId;
      const requested = (args.source ?? 'text').toLowerCase();
      const source = ['message', 'text', 'json'].includes(requested) ? requested : 'text';
      context.queues.enqueue(groupId, {
        groupId,
        uuid: args.uuid || null,
        name: args.name,
        body: args.episode_body,
        // graphiti-core reads a `json` episode as JSON (its extraction prompt differs); the stand-in
        // extraction reads its string values as sentences. Invalid JSON is queued all the same, as upstream.
        extractFrom: source === 'json' ? jsonSentences(args.episode_body) : withoutRolePrefix(args.episode_body),
        source,
        sourceDescription: args.source_description ?? '',
        referenceMs,
      });
      return answer({ message: `Episode '${args.name}' queued for processing in group '${groupId}'` });
    },
  );

  server.registerTool(
    'search_nodes',
    {
      description: 'Search for nodes (entities) in the graph memory.',
      inputSchema: {
        query: z.string(),
        group_ids: groupIdsParameter,
        max_nodes: z.number().int().optional(),
        entity_types: z.array(z.string()).nullable().optional(),
        center_node_uuid: z.string().nullable().optional(),
      },
    },
    (args) => {
      const terms = new Set(searchTerms(args.query));
      const nodes = context.store
        .nodes(effectiveGroupIds(context, args.group_ids))
        .filter((node) => searchTerms(node.name).some((term) => terms.has(term)))
        .slice(0, Math.max(0, args.max_nodes ?? 10));
      if (nodes.length === 0) return answer({ message: 'No relevant nodes found', nodes: [] });
      return answer({
        message: 'Nodes retrieved successfully',
        nodes: nodes.map(nodeResult),
      });
    },
  );

  server.registerTool(
    'search_memory_facts',
    {
      description: 'Search the graph memory for relevant facts (entity edges).',
      inputSchema: {
        query: z.string(),
        group_ids: groupIdsParameter,
        max_facts: z.number().int().optional(),
        center_node_uuid: z.string().nullable().optional(),
      },
    },
    (args) => {
      const maxFacts = args.max_facts ?? 10;
      if (maxFacts <= 0) return failure('max_facts must be a positive integer');
      const groupIds = effectiveGroupIds(context, args.group_ids);
      const invalid = groupIds.find((groupId) => !isValidGroupId(groupId));
      if (invalid !== undefined) {
        return failure(`Error searching facts: group_id "${invalid}" must contain only alphanumeric characters, dashes, or underscores`);
      }
      const facts = searchFacts(context.store.facts(groupIds), args.query, maxFacts);
      if (facts.length === 0) return answer({ message: 'No relevant facts found', facts: [] });
      return answer({ message: 'Facts retrieved successfully', facts: facts.map((fact) => factAnswer(context, fact)) });
    },
  );

  server.registerTool(
    'delete_entity_edge',
    { description: 'Delete an entity edge from the graph memory.', inputSchema: { uuid: z.string() } },
    ({ uuid }) =>
      context.store.deleteFact(uuid)
        ? answer({ message: `Entity edge with UUID ${uuid} deleted successfully` })
        : failure(`Error deleting entity edge: edge ${uuid} not found`),
  );

  server.registerTool(
    'delete_episode',
    { description: 'Delete an episode (and the facts only it supports).', inputSchema: { uuid: z.string() } },
    ({ uuid }) =>
      context.store.removeEpisode(uuid)
        ? answer({ message: `Episode with UUID ${uuid} deleted successfully` })
        : failure(`Error deleting episode: node ${uuid} not found`),
  );

  server.registerTool(
    'get_entity_edge',
    { description: 'Get an entity edge from the graph memory by its UUID.', inputSchema: { uuid: z.string() } },
    ({ uuid }) => {
      const fact = context.store.getFact(uuid);
      return fact === undefined ? failure(`Error getting entity edge: edge ${uuid} not found`) : answer(factAnswer(context, fact));
    },
  );

  server.registerTool(
    'get_episodes',
    {
      description: 'Get episodes from the graph memory.',
      inputSchema: { group_ids: groupIdsParameter, max_episodes: z.number().int().optional() },
    },
    (args) => {
      const limit = args.max_episodes ?? 10;
      if (limit < 0) return failure('Error getting episodes: LIMIT must be a non-negative integer');
      const groupIds = effectiveGroupIds(context, args.group_ids);
      // graphiti-core's EpisodicNode.get_by_group_ids: ORDER BY uuid DESC, then LIMIT. Not by time.
      const episodes = groupIds
        .flatMap((groupId) => context.store.episodes({ groupId }))
        .sort((left, right) => (left.uuid < right.uuid ? 1 : left.uuid > right.uuid ? -1 : 0))
        .slice(0, limit);
      if (episodes.length === 0) return answer({ message: 'No episodes found', episodes: [] });
      return answer({
        message: 'Episodes retrieved successfully',
        episodes: episodes.map((episode) => ({
          uuid: episode.uuid,
          name: episode.name,
          content: episode.content,
          created_at: episode.created_at,
          source: episode.source,
          source_description: episode.source_description,
          group_id: episode.group_id,
        })),
      });
    },
  );

  server.registerTool(
    'clear_graph',
    { description: 'Clear all data from the graph for specified group IDs.', inputSchema: { group_ids: groupIdsParameter } },
    (args) => {
      const groupIds = effectiveGroupIds(context, args.group_ids);
      if (groupIds.length === 0) return failure('No group IDs specified for clearing');
      for (const groupId of groupIds) context.store.deleteGroup(groupId);
      return answer({ message: `Graph data cleared successfully for group IDs: ${groupIds.join(', ')}` });
    },
  );

  if (context.release === 'main') registerAddTriplet(server, context);

  server.registerTool('get_status', { description: 'Get the status of the Graphiti MCP server.' }, () =>
    answer({ status: 'ok', message: 'Graphiti MCP server is running and connected to EMULATOR (in-memory) database' }),
  );

  return server;
}
