// The wire contract of Graphiti's REST service (graph_service, graphiti-core 0.29.x), as zod
// schemas. Field names are the wire names. Responses are parsed loosely (unknown fields kept, so a
// newer server does not break us); requests strictly, so a typo never reaches the server.
import { z } from 'zod';

/** Graphiti accepts only these characters in a group id; anything else kills its worker. */
export const GROUP_ID_PATTERN = /^[a-zA-Z0-9_-]+$/;

export const groupIdSchema = z
  .string()
  .regex(
    GROUP_ID_PATTERN,
    'group_id must match ^[a-zA-Z0-9_-]+$ (letters, digits, "_" and "-"); map other names to a safe id first',
  );

/**
 * ISO 8601 with `Z` or an offset, with or without fractions, as the server writes them. A naive
 * timestamp (no offset, which Pydantic writes for a naive datetime) is accepted and means UTC.
 */
export const dateTimeSchema = z.iso.datetime({ offset: true, local: true });

export const roleTypeSchema = z.enum(['user', 'assistant', 'system']);
export type RoleType = z.infer<typeof roleTypeSchema>;

export const messageSchema = z
  .object({
    content: z.string(),
    role_type: roleTypeSchema,
    /** The key is required by the server; `null` is allowed. */
    role: z.string().nullable(),
    name: z.string().optional(),
    timestamp: dateTimeSchema.optional(),
    source_description: z.string().optional(),
    /** Never set for a new message: the server treats it as an existing episode to re-process. */
    uuid: z.string().nullable().optional(),
  })
  .strict();
export type Message = z.infer<typeof messageSchema>;

export const addMessagesRequestSchema = z
  .object({ group_id: groupIdSchema, messages: z.array(messageSchema) })
  .strict();
export type AddMessagesRequest = z.infer<typeof addMessagesRequestSchema>;

export const addEntityNodeRequestSchema = z
  .object({
    uuid: z.string().min(1),
    group_id: groupIdSchema,
    name: z.string(),
    summary: z.string().optional(),
  })
  .strict();
export type AddEntityNodeRequest = z.infer<typeof addEntityNodeRequestSchema>;

export const searchQuerySchema = z
  .object({
    /** `null` searches every group. */
    group_ids: z.array(groupIdSchema).nullable(),
    query: z.string(),
    max_facts: z.number().int().positive().optional(),
  })
  .strict();
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const getMemoryRequestSchema = z
  .object({
    group_id: groupIdSchema,
    max_facts: z.number().int().positive().optional(),
    /** The key is required by the server; the value is unused. */
    center_node_uuid: z.string().nullable(),
    messages: z.array(messageSchema),
  })
  .strict();
export type GetMemoryRequest = z.infer<typeof getMemoryRequestSchema>;

export const resultSchema = z.looseObject({ message: z.string(), success: z.boolean() });
export type Result = z.infer<typeof resultSchema>;

export const healthcheckSchema = z.looseObject({ status: z.string() });
export type Healthcheck = z.infer<typeof healthcheckSchema>;

export const factResultSchema = z.looseObject({
  uuid: z.string(),
  name: z.string(),
  fact: z.string(),
  valid_at: dateTimeSchema.nullable(),
  invalid_at: dateTimeSchema.nullable(),
  created_at: dateTimeSchema,
  expired_at: dateTimeSchema.nullable(),
  /** Added in 2026; older servers omit the next three. */
  source_node_uuid: z.string().optional(),
  target_node_uuid: z.string().optional(),
  episodes: z.array(z.string()).optional(),
});
export type FactResult = z.infer<typeof factResultSchema>;

export const searchResultsSchema = z.looseObject({ facts: z.array(factResultSchema) });
export type SearchResults = z.infer<typeof searchResultsSchema>;

export const episodeSchema = z.looseObject({
  uuid: z.string(),
  name: z.string(),
  group_id: z.string(),
  labels: z.array(z.string()),
  created_at: dateTimeSchema,
  source: z.string(),
  source_description: z.string(),
  content: z.string(),
  valid_at: dateTimeSchema,
  entity_edges: z.array(z.string()),
  episode_metadata: z.unknown().optional(),
});
export type Episode = z.infer<typeof episodeSchema>;

/** `/episodes/{group_id}` answers a bare array, oldest first. */
export const episodesSchema = z.array(episodeSchema);

export const entityNodeSchema = z.looseObject({
  uuid: z.string(),
  name: z.string(),
  group_id: z.string(),
  labels: z.array(z.string()),
  created_at: dateTimeSchema,
  name_embedding: z.array(z.number()).nullable().optional(),
  summary: z.string(),
  attributes: z.record(z.string(), z.unknown()),
});
export type EntityNode = z.infer<typeof entityNodeSchema>;

/** FastAPI's 422 body. */
export const validationErrorBodySchema = z.looseObject({
  detail: z.array(
    z.looseObject({
      type: z.string(),
      loc: z.array(z.union([z.string(), z.number()])),
      msg: z.string(),
      input: z.unknown().optional(),
    }),
  ),
});
export type ValidationErrorBody = z.infer<typeof validationErrorBodySchema>;

/** FastAPI's HTTPException body (404 and friends). */
export const detailErrorBodySchema = z.looseObject({ detail: z.string() });
