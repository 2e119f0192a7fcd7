// The entry of `dist/mcp-server.mjs`, the one-file MCP server `mcp install` copies into the state
// folder and each client runs: `<node> <copy> [--state-dir DIR] [--workspace DIR] --installed-by
// graphiti-harness`. The same server as `graphiti-harness mcp`.
import { processTerminal } from '../terminal/terminal.js';
import { serveMcp } from './mcp-serve.js';

/** The harness's version, set by the bundle's build. */
declare const GRAPHITI_HARNESS_VERSION: string | undefined;

process.exitCode = await serveMcp(process.argv.slice(2), processTerminal(), typeof GRAPHITI_HARNESS_VERSION === 'string' ? GRAPHITI_HARNESS_VERSION : 'unknown');
