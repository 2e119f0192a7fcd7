// What upstream's MCP tools answer (mcp_server/src/models/response_types.py), parsed loosely like
// the REST answers: unknown fields kept, so a newer server does not break us.
import { z } from 'zod';
import { dateTimeSchema, factResultSchema } from '../schemas.js';

/**
 * What this client reads of a tool call's result: its text content and `isError`. The SDK checks
 * the result against this instead of its CallToolResultSchema (every content kind, in full): the
 * tool's JSON text is then checked by the tool's own schema, so nothing goes unchecked.
 */
export const toolResultSchema = z.looseObject({
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })),
  isError: z.boolean().optional(),
});
export type ToolResult = z.infer<typeof toolResultSchema>;

export const successResponseSchema = z.looseObject({ message: z.string() });

export const statusResponseSchema = z.looseObject({ status: z.string(), message: z.string() });

export const factSearchResponseSchema = z.looseObject({ message: z.string(), facts: z.array(factResultSchema) });

/** `get_episodes`: seven fields per episode, ordered by uuid descending (not by time). */
export const mcpEpisodeSchema = z.looseObject({
  uuid: z.string(),
  name: z.string(),
  content: z.string(),
  created_at: dateTimeSchema.nullable(),
  source: z.string(),
  source_description: z.string(),
  group_id: z.string(),
});
export type McpEpisode = z.infer<typeof mcpEpisodeSchema>;

export const episodeSearchResponseSchema = z.looseObject({ message: z.string(), episodes: z.array(mcpEpisodeSchema) });

export const healthResponseSchema = z.looseObject({ status: z.string(), service: z.string().optional() });
