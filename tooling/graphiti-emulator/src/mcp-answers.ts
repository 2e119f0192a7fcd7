// How upstream's FastMCP tools answer: a dict serialised as JSON text content, failures included
// (`{ "error": "…" }` in a *successful* tool result).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EntityNodeRecord } from './types.js';

export function answer(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

export const failure = (error: string): CallToolResult => answer({ error });

/** A node as the MCP server's tools return it (search_nodes, add_triplet). */
export function nodeResult(node: EntityNodeRecord): Record<string, unknown> {
  return {
    uuid: node.uuid,
    name: node.name,
    labels: node.labels,
    created_at: node.created_at,
    summary: node.summary,
    group_id: node.group_id,
    attributes: node.attributes,
  };
}
