// The structured writes Graphiti offers besides messages, by face and release (read from upstream
// getzep/graphiti at 993e081, 2026-08-20):
//
// - MCP `add_memory` with `source: "json"` (mcp_server/src/graphiti_mcp_server.py, every release):
//   `episode_body` must be a JSON *string* (upstream's docstring: "a properly escaped JSON string,
//   not a raw Python dictionary"). Upstream does not parse it when queueing (an unknown `source`
//   even falls back to `text`), so this client checks both before sending.
// - MCP `add_memory(custom_extraction_instructions)` and the `add_triplet` tool: added together by
//   commit 29a7565 (2026-06-07, "feat(mcp): core-parity …", #1553), on main only: the tagged
//   mcp-v1.0.2 image has neither (its FastMCP argument model silently drops the argument). Which a
//   server has is read from its tool list (`capabilities()`), never assumed.
// - `add_triplet(source_node_name, edge_name, fact, target_node_name, group_id?, source_node_uuid?,
//   target_node_uuid?)` answers `TripletResponse { message, nodes: NodeResult[], edges:
//   EdgeResult[] }` (mcp_server/src/models/response_types.py). It is synchronous (no queue) and
//   calls graphiti-core's `Graphiti.add_triplet`: an end whose uuid exists is reused, otherwise it is
//   resolved by name (so a name already in the group may win over the uuid given); an edge whose two
//   ends and fact exist verbatim is reused (core's fast path), otherwise the model deduplicates it:
//   "direct" still costs embeddings and, for a new edge among others, one LLM call. Its edges name
//   no episode, so deleting an episode never removes them; deleting the group does.
// - REST `POST /entity-node` (server/graph_service/routers/ingest.py, `AddEntityNodeRequest { uuid,
//   group_id, name, summary = "" }` in dto/ingest.py) answers 201 with graphiti-core's EntityNode.
//   The caller picks the uuid and core saves with `MERGE (n:Entity {uuid})`: posting the same uuid
//   again updates that node, never a second one. REST has no route for an edge between given nodes.
import { z } from 'zod';
import { dateTimeSchema, groupIdSchema } from './schemas.js';

/** Which structured writes a server takes. Read from the server (the MCP tool list), not assumed. */
export interface GraphitiCapabilities {
  readonly face: 'rest' | 'mcp';
  /** MCP `add_memory` (`source: "json"`, every release). */
  readonly jsonEpisodes: boolean;
  /** MCP `add_memory` declares `custom_extraction_instructions` (main since 29a7565). */
  readonly extractionInstructions: boolean;
  /** MCP `add_triplet` is in the tool list (main since 29a7565). */
  readonly triplets: boolean;
  /** REST `POST /entity-node`. */
  readonly entityNodes: boolean;
}

export const EPISODE_SOURCES = ['text', 'json', 'message'] as const;

function isJsonText(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

/** MCP `add_memory`'s arguments, as upstream names them (never `uuid`: that re-processes an episode). */
export const addMemoryRequestSchema = z
  .object({
    name: z.string(),
    episode_body: z.string(),
    group_id: groupIdSchema,
    source: z.enum(EPISODE_SOURCES).optional(),
    source_description: z.string().optional(),
    reference_time: dateTimeSchema.optional(),
    custom_extraction_instructions: z.string().min(1).optional(),
  })
  .strict()
  .superRefine((value, context) => {
    if (value.source === 'json' && !isJsonText(value.episode_body)) {
      context.addIssue({
        code: 'custom',
        path: ['episode_body'],
        message: 'with source "json", episode_body must be a JSON string (JSON.stringify the object first)',
      });
    }
  });
export type AddMemoryRequest = z.infer<typeof addMemoryRequestSchema>;

/** MCP `add_triplet`'s arguments. `group_id` is required here: the server's default group is never what a caller means. */
export const addTripletRequestSchema = z
  .object({
    source_node_name: z.string().min(1),
    edge_name: z.string().min(1),
    fact: z.string().min(1),
    target_node_name: z.string().min(1),
    group_id: groupIdSchema,
    source_node_uuid: z.string().min(1).optional(),
    target_node_uuid: z.string().min(1).optional(),
  })
  .strict();
export type AddTripletRequest = z.infer<typeof addTripletRequestSchema>;

export const nodeResultSchema = z.looseObject({
  uuid: z.string(),
  name: z.string(),
  labels: z.array(z.string()),
  created_at: dateTimeSchema.nullable(),
  summary: z.string().nullable(),
  group_id: z.string(),
  attributes: z.record(z.string(), z.unknown()),
});
export type NodeResult = z.infer<typeof nodeResultSchema>;

export const edgeResultSchema = z.looseObject({
  uuid: z.string(),
  name: z.string(),
  fact: z.string(),
  source_node_uuid: z.string(),
  target_node_uuid: z.string(),
  group_id: z.string(),
  created_at: dateTimeSchema.nullable(),
  valid_at: dateTimeSchema.nullable(),
  invalid_at: dateTimeSchema.nullable(),
});
export type EdgeResult = z.infer<typeof edgeResultSchema>;

export const tripletResponseSchema = z.looseObject({
  message: z.string(),
  nodes: z.array(nodeResultSchema),
  edges: z.array(edgeResultSchema),
});
export type TripletResponse = z.infer<typeof tripletResponseSchema>;

/** What `tools/list` answers, as far as this client reads it. */
export const toolListSchema = z.looseObject({
  tools: z.array(
    z.looseObject({
      name: z.string(),
      inputSchema: z.looseObject({ properties: z.record(z.string(), z.unknown()).optional() }).optional(),
    }),
  ),
  nextCursor: z.string().optional(),
});
export type ToolList = z.infer<typeof toolListSchema>;

/** The capabilities a tool list shows. */
export function capabilitiesOfTools(tools: ToolList['tools']): GraphitiCapabilities {
  const addMemory = tools.find((tool) => tool.name === 'add_memory');
  return {
    face: 'mcp',
    jsonEpisodes: addMemory !== undefined,
    extractionInstructions: addMemory?.inputSchema?.properties?.['custom_extraction_instructions'] !== undefined,
    triplets: tools.some((tool) => tool.name === 'add_triplet'),
    entityNodes: false,
  };
}

export const REST_CAPABILITIES: GraphitiCapabilities = Object.freeze({
  face: 'rest',
  jsonEpisodes: false,
  extractionInstructions: false,
  triplets: false,
  entityNodes: true,
});
