// The MCP server the clients run, copied out of this installation into the state folder, as
// `hooks install` copies the hook runner: `<state folder>/mcp-server/<version>+<hash>/mcp-server.mjs`,
// one self-contained file (the harness's build bundles it: scripts/build-mcp-server.mjs). A client's
// config then names that copy and the absolute node, so moving or deleting the checkout or the
// global package never breaks the server, and an upgrade adds a copy beside the old one.
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { mcpServersStatus } from '@graphiti-memory/agent-hooks';
import { harnessPackage } from '../cli/harness-package.js';

export const MCP_SERVER_FILE_NAME = 'mcp-server.mjs';
export const MCP_SERVER_FOLDER_NAME = 'mcp-server';

/** The bundle this installation ships: `dist/mcp-server.mjs` beside the harness's package.json. */
export function bundledMcpServer(): string {
  return path.join(harnessPackage().root, 'dist', MCP_SERVER_FILE_NAME);
}

export interface CopiedMcpServer {
  readonly entry: string;
  /** False when this very copy was already in place. */
  readonly copied: boolean;
}

/** Copies `source` (default: the bundle) into the state folder, whole or not at all; undefined when there is no bundle. */
export async function copyMcpServer(stateDirectory: string, source = bundledMcpServer()): Promise<CopiedMcpServer | undefined> {
  if (!existsSync(source)) return undefined;
  const bytes = await fs.readFile(source);
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const version = harnessPackage().version.replace(/[^0-9A-Za-z.-]/g, '-');
  const parent = path.join(stateDirectory, MCP_SERVER_FOLDER_NAME);
  const folder = path.join(parent, `${version}+${hash}`);
  const entry = path.join(folder, MCP_SERVER_FILE_NAME);
  const existing = await fs.readFile(entry).catch(() => undefined);
  if (existing !== undefined && existing.equals(bytes)) return { entry, copied: false };
  await fs.mkdir(parent, { recursive: true, mode: 0o700 });
  const partial = await fs.mkdtemp(path.join(parent, '.partial-'));
  try {
    await fs.writeFile(path.join(partial, MCP_SERVER_FILE_NAME), bytes, { mode: 0o644 });
    await fs.rm(folder, { recursive: true, force: true });
    await fs.rename(partial, folder);
  } finally {
    await fs.rm(partial, { recursive: true, force: true });
  }
  return { entry, copied: true };
}

/**
 * Removes the server copies under `<state>/mcp-server/` that no MCP client's entry runs any more (an
 * upgrade leaves the old one behind); resolves to the folders removed. A client file that cannot be
 * read keeps every copy: what it runs is unknown.
 */
export async function pruneMcpServers(stateDirectory: string, home: string, env: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const statuses = await mcpServersStatus({ home, env });
  if (statuses.some((status) => status.problem !== undefined)) return [];
  const used = new Set(statuses.flatMap((status) => status.command?.args ?? []).filter((arg) => arg.endsWith(MCP_SERVER_FILE_NAME)).map((entry) => path.resolve(path.dirname(entry))));
  const parent = path.join(stateDirectory, MCP_SERVER_FOLDER_NAME);
  const names = await fs.readdir(parent).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    // `.partial-…`: a copy under way.
    if (name.startsWith('.')) continue;
    const folder = path.join(parent, name);
    if (used.has(path.resolve(folder)) || !existsSync(path.join(folder, MCP_SERVER_FILE_NAME))) continue;
    try {
      await fs.rm(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      // Busy (Windows): tried again next time.
    }
  }
  return removed;
}
