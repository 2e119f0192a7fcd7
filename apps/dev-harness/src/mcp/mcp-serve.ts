// `graphiti-harness mcp [--state-dir DIR] [--workspace PATH]` without the rest of the CLI: the
// binary takes this path for the server (and the one-file bundle is built from it), because an MCP
// client gives a server only seconds to start and loading every command would take most of them.
import { parseArgs } from 'node:util';
import type { Terminal } from '../terminal/terminal.js';
import { runMcpServer } from './mcp-server.js';

/** Serves on stdio with the flags of `args` (the arguments after `mcp`); resolves to the exit code. */
export function serveMcp(args: readonly string[], terminal: Terminal, version: string): Promise<number> {
  const { values } = parseArgs({
    args: [...(args[0] === 'serve' ? args.slice(1) : args)],
    options: { 'state-dir': { type: 'string' }, workspace: { type: 'string' }, 'installed-by': { type: 'string' } },
    strict: false,
  });
  const stateDir = typeof values['state-dir'] === 'string' ? values['state-dir'] : undefined;
  const workspace = typeof values['workspace'] === 'string' ? values['workspace'] : undefined;
  return runMcpServer({ terminal, flags: { ...(stateDir === undefined ? {} : { stateDir }), ...(workspace === undefined ? {} : { workspace }) }, version });
}
