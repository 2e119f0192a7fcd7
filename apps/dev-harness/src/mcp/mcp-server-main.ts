// The entry of `dist/mcp-server.mjs`, the one-file MCP server `mcp install` copies into the state
// folder and each client runs: `<node> <copy> [--state-dir DIR] [--workspace DIR] --installed-by
// graphiti-harness`. The same server as `graphiti-harness mcp`.
import { parseArgs } from 'node:util';
import { processTerminal } from '../terminal/terminal.js';
import { runMcpServer } from './mcp-server.js';

/** The harness's version, set by the bundle's build. */
declare const GRAPHITI_HARNESS_VERSION: string | undefined;

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: { 'state-dir': { type: 'string' }, workspace: { type: 'string' }, 'installed-by': { type: 'string' } },
  strict: false,
});
const stateDir = typeof values['state-dir'] === 'string' ? values['state-dir'] : undefined;
const workspace = typeof values['workspace'] === 'string' ? values['workspace'] : undefined;

process.exitCode = await runMcpServer({
  terminal: processTerminal(),
  flags: { ...(stateDir === undefined ? {} : { stateDir }), ...(workspace === undefined ? {} : { workspace }) },
  version: typeof GRAPHITI_HARNESS_VERSION === 'string' ? GRAPHITI_HARNESS_VERSION : 'unknown',
});
