// The client contract against a real Graphiti: the REST service when GRAPHITI_URL points at one,
// the MCP server when GRAPHITI_MCP_URL does (and GRAPHITI_API_KEY when a proxy in front needs a
// key); each is skipped, saying so, otherwise. It works in a random temporary group, deletes it
// afterwards, and never clears anything else.
import { afterAll, describe } from 'vitest';
import { GraphitiClient, GraphitiMcpClient } from './index.js';
import { defineClientContract } from '../test-support/contract.js';

const url = process.env['GRAPHITI_URL'];
const mcpUrl = process.env['GRAPHITI_MCP_URL'];
const apiKey = process.env['GRAPHITI_API_KEY'];

if (url === undefined || url === '') {
  console.log('graphiti-client live suite skipped: set GRAPHITI_URL (and GRAPHITI_API_KEY if needed) to run it against a real Graphiti.');
}

describe.skipIf(url === undefined || url === '')('live contract against GRAPHITI_URL', () => {
  let client: GraphitiClient | undefined;

  afterAll(async () => {
    await client?.close();
  });

  defineClientContract({
    client: () => {
      // Processing is LLM-bound upstream: allow slow answers, and poll /episodes up to 180 s as
      // upstream's own end-to-end test does.
      client = new GraphitiClient({ baseUrl: url ?? '', apiKey: apiKey || undefined, timeoutMs: 60_000 });
      return client;
    },
    processingTimeoutMs: 180_000,
    pollIntervalMs: 2_000,
    testTimeoutMs: 240_000,
  });
});

if (mcpUrl === undefined || mcpUrl === '') {
  console.log('graphiti-client live MCP suite skipped: set GRAPHITI_MCP_URL (the MCP server root, e.g. http://localhost:8000) to run it.');
}

describe.skipIf(mcpUrl === undefined || mcpUrl === '')('live contract against GRAPHITI_MCP_URL', () => {
  let client: GraphitiMcpClient | undefined;

  afterAll(async () => {
    await client?.close();
  });

  defineClientContract({
    client: () => {
      client = new GraphitiMcpClient({ baseUrl: mcpUrl ?? '', apiKey: apiKey || undefined, timeoutMs: 60_000 });
      return client;
    },
    processingTimeoutMs: 180_000,
    pollIntervalMs: 2_000,
    testTimeoutMs: 240_000,
  });
});
