// How upstream's FastMCP tools answer: a dict serialised as JSON text content, failures included
// (`{ "error": "…" }` in a *successful* tool result).
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function answer(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

export const failure = (error: string): CallToolResult => answer({ error });
