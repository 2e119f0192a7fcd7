// `graphiti-harness mcp install|uninstall`: the client's file gets our one entry, which runs the
// server copied into the state folder; that copy runs on its own (moved far from any checkout or
// node_modules) and speaks MCP to the SDK's client.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runHarness } from '../src/cli/program.js';
import { capturedTerminal } from '../src/test-support/captured-terminal.js';
import { ensureHarnessBuilt } from './hook-server-fixture.js';

let folder: string;
let home: string;
let state: string;

beforeAll(() => ensureHarnessBuilt(), 300_000);

beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-mcp-install-'));
  home = path.join(folder, 'home');
  state = path.join(folder, 'state');
  await fs.mkdir(home);
});

afterEach(() => fs.rm(folder, { recursive: true, force: true }));

async function harness(args: readonly string[]): Promise<{ exitCode: number; json: Record<string, unknown>; err: string }> {
  const terminal = capturedTerminal({ cwd: folder, env: { HOME: home, GRAPHITI_MEMORY_CONFIG_DIR: path.join(folder, 'config') } });
  const exitCode = await runHarness([...args, '--state-dir', state, '--json'], { terminal });
  return { exitCode, json: JSON.parse(terminal.out()) as Record<string, unknown>, err: terminal.err() };
}

describe('graphiti-harness mcp install', () => {
  it('writes Claude Code\'s user-scope entry running the copied server, idempotently, and uninstall removes exactly it', async () => {
    const file = path.join(home, '.claude.json');
    await fs.writeFile(file, JSON.stringify({ numStartups: 3, mcpServers: { github: { type: 'stdio', command: 'npx', args: ['server-github'] } } }));
    const installed = await harness(['mcp', 'install', '--target', 'claude']);
    expect(installed.exitCode).toBe(0);
    expect(installed.json).toMatchObject({ ok: true, target: 'claude', file, changed: true, name: 'graphiti-memory', setUp: false });
    const command = installed.json['command'] as { command: string; args: string[] };
    expect(command.command).toBe(process.execPath);
    // The copy in the state folder, not this checkout: a moved or deleted checkout breaks nothing.
    expect(command.args[0]).toMatch(new RegExp(`^${state.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/mcp-server/[^/]+\\+[0-9a-f]{12}/mcp-server\\.mjs$`));
    expect(command.args.slice(1)).toEqual(['--state-dir', state]);
    expect(installed.err).toContain('graphiti-harness setup');
    const written = JSON.parse(await fs.readFile(file, 'utf8')) as { numStartups: number; mcpServers: Record<string, unknown> };
    expect(written.numStartups).toBe(3);
    expect(written.mcpServers['graphiti-memory']).toEqual({ type: 'stdio', command: process.execPath, args: [...command.args, '--installed-by', 'graphiti-harness'] });

    const again = await harness(['mcp', 'install', '--target', 'claude']);
    expect(again.json).toMatchObject({ changed: false });

    const removed = await harness(['mcp', 'uninstall', '--target', 'claude']);
    expect(removed.json).toMatchObject({ ok: true, changed: true });
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ numStartups: 3, mcpServers: { github: { type: 'stdio', command: 'npx', args: ['server-github'] } } });
  });

  it('the copied server runs on its own, far from the checkout, and lists the four tools', async () => {
    const installed = await harness(['mcp', 'install', '--target', 'cursor']);
    const command = installed.json['command'] as { command: string; args: string[] };
    // Moved where no node_modules or workspace package can be found.
    const lonely = await fs.mkdtemp(path.join(os.tmpdir(), 'lonely-mcp-'));
    try {
      const moved = path.join(lonely, 'mcp-server.mjs');
      await fs.copyFile(command.args[0] ?? '', moved);
      const transport = new StdioClientTransport({
        command: command.command,
        args: [moved, ...command.args.slice(1), '--installed-by', 'graphiti-harness'],
        cwd: lonely,
        env: { PATH: '', HOME: home, GRAPHITI_MEMORY_CONFIG_DIR: path.join(folder, 'config') },
        stderr: 'pipe',
      });
      const client = new Client({ name: 'lonely', version: '1.0.0' });
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['memory_forget', 'memory_pending', 'memory_recall', 'memory_remember']);
        const answer = await client.callTool({ name: 'memory_recall', arguments: { query: 'what did we decide' } });
        expect(JSON.stringify(answer.content)).toContain('graphiti-harness setup');
        expect(client.getServerVersion()).toMatchObject({ name: 'graphiti-memory' });
      } finally {
        await client.close();
      }
    } finally {
      await fs.rm(lonely, { recursive: true, force: true });
    }
  });

  it('removes the server copies no client runs, and the consent goes only with the last hook or MCP client', async () => {
    // An upgrade leaves the previous copy behind; the next install removes it, unless a client runs it.
    const old = path.join(state, 'mcp-server', '0.0.1+000000000000');
    await fs.mkdir(old, { recursive: true });
    await fs.writeFile(path.join(old, 'mcp-server.mjs'), '// an older copy\n');
    const runByCursor = path.join(state, 'mcp-server', '0.0.2+111111111111');
    await fs.mkdir(runByCursor, { recursive: true });
    await fs.writeFile(path.join(runByCursor, 'mcp-server.mjs'), '// what Cursor still runs\n');
    await fs.mkdir(path.join(home, '.cursor'), { recursive: true });
    const cursorEntry = { command: process.execPath, args: [path.join(runByCursor, 'mcp-server.mjs'), '--installed-by', 'graphiti-harness'] };
    await fs.writeFile(path.join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { 'graphiti-memory': cursorEntry } }));
    const installed = await harness(['mcp', 'install', '--target', 'claude']);
    expect(installed.exitCode).toBe(0);
    await expect(fs.stat(old)).rejects.toThrow();
    expect((await fs.stat(runByCursor)).isDirectory()).toBe(true);
    const current = (installed.json['command'] as { args: string[] }).args[0] ?? '';
    expect((await fs.stat(current)).isFile()).toBe(true);

    const status = await harness(['hooks', 'status']);
    expect((status.json['mcp'] as Array<{ target: string; installed: boolean; command: { args: string[] } | null }>).filter((client) => client.installed).map((client) => [client.target, client.command?.args[0]])).toEqual([
      ['claude', current],
      ['cursor', path.join(runByCursor, 'mcp-server.mjs')],
    ]);

    // Hooks and MCP share one consent: removing the hooks keeps it while an MCP client runs our server.
    const config = path.join(folder, 'config', 'config.json');
    expect((await harness(['hooks', 'install', '--target', 'claude', '--endpoint', 'http://127.0.0.1:9'])).exitCode).toBe(0);
    expect(await fs.readFile(config, 'utf8')).toContain('"consent"');
    const hooksRemoved = await harness(['hooks', 'uninstall', '--target', 'claude']);
    expect(hooksRemoved.json).toMatchObject({ ok: true, consentRevoked: false, mcpClients: ['Claude Code', 'Cursor'] });
    expect(await fs.readFile(config, 'utf8')).toContain('"consent"');
    expect((await harness(['mcp', 'uninstall', '--target', 'cursor'])).json).toMatchObject({ changed: true, consentRevoked: false });
    // The last one: the consent goes with it, and so does every copy no client runs.
    expect((await harness(['mcp', 'uninstall', '--target', 'claude'])).json).toMatchObject({ changed: true, consentRevoked: true });
    expect(await fs.readFile(config, 'utf8')).not.toContain('"consent"');
    expect(await fs.readdir(path.join(state, 'mcp-server'))).toEqual([]);
  });

  it('refuses an unknown target as a usage error', async () => {
    const terminal = capturedTerminal({ cwd: folder, env: { HOME: home } });
    expect(await runHarness(['mcp', 'install', '--target', 'emacs'], { terminal })).toBe(2);
    expect(terminal.err()).toMatch(/claude, codex, gemini, cursor, vscode/);
  });
});
