import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installMcpServer, MCP_CLIENT_TARGETS, mcpClientFile, mcpServerInstalled, mcpServersStatus, uninstallMcpServer, type McpClientTarget } from './mcp-clients.js';

let home: string;
const command = { command: '/usr/bin/node', args: ['/state/mcp-server/0.1.0+abc/mcp-server.mjs'] };
const place = () => ({ home, env: {}, platform: 'linux' as const });

beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-clients-'));
});

afterEach(() => fs.rm(home, { recursive: true, force: true }));

describe('where each client keeps its MCP servers', () => {
  it('names the documented user-level files', () => {
    expect(mcpClientFile('claude', place())).toBe(path.join(home, '.claude.json'));
    expect(mcpClientFile('claude', { home, env: { CLAUDE_CONFIG_DIR: '/cfg/claude' } })).toBe(path.join('/cfg/claude', '.claude.json'));
    expect(mcpClientFile('codex', place())).toBe(path.join(home, '.codex', 'config.toml'));
    expect(mcpClientFile('codex', { home, env: { CODEX_HOME: '/cfg/codex' } })).toBe(path.join('/cfg/codex', 'config.toml'));
    expect(mcpClientFile('gemini', place())).toBe(path.join(home, '.gemini', 'settings.json'));
    expect(mcpClientFile('cursor', place())).toBe(path.join(home, '.cursor', 'mcp.json'));
    expect(mcpClientFile('vscode', place())).toBe(path.join(home, '.config', 'Code', 'User', 'mcp.json'));
    expect(mcpClientFile('vscode', { home, env: {}, platform: 'darwin' })).toBe(path.join(home, 'Library', 'Application Support', 'Code', 'User', 'mcp.json'));
    expect(mcpClientFile('vscode', { home, env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, platform: 'win32' })).toBe(path.join('C:\\Users\\ada\\AppData\\Roaming', 'Code', 'User', 'mcp.json'));
  });
});

const jsonTargets: ReadonlyArray<readonly [McpClientTarget, string, Record<string, unknown>]> = [
  ['claude', 'mcpServers', { type: 'stdio', command: command.command, args: [...command.args, '--installed-by', 'graphiti-harness'] }],
  ['gemini', 'mcpServers', { command: command.command, args: [...command.args, '--installed-by', 'graphiti-harness'] }],
  ['cursor', 'mcpServers', { command: command.command, args: [...command.args, '--installed-by', 'graphiti-harness'] }],
  ['vscode', 'servers', { type: 'stdio', command: command.command, args: [...command.args, '--installed-by', 'graphiti-harness'] }],
];

describe.each(jsonTargets)('%s (JSON)', (target, key, entry) => {
  it('merges our entry into the user\'s file, keeps everything else, and backs the file up', async () => {
    const file = mcpClientFile(target, place());
    await fs.mkdir(path.dirname(file), { recursive: true });
    const own = `{\n  // the user's own comment\n  "theme": "dark",\n  "${key}": {\n    "github": { "command": "npx", "args": ["-y", "server-github"] },\n  },\n}\n`;
    await fs.writeFile(file, own, { mode: 0o600 });
    const change = await installMcpServer({ ...place(), target, command });
    expect(change).toMatchObject({ target, file, changed: true, installed: true, backup: `${file}.graphiti-memory-backup` });
    const text = await fs.readFile(file, 'utf8');
    expect(text).toContain("// the user's own comment");
    const value = parse(text) as Record<string, Record<string, unknown>>;
    expect(value['theme']).toBe('dark');
    expect(value[key]?.['github']).toEqual({ command: 'npx', args: ['-y', 'server-github'] });
    expect(value[key]?.['graphiti-memory']).toEqual(entry);
    expect(await fs.readFile(`${file}.graphiti-memory-backup`, 'utf8')).toBe(own);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await mcpServerInstalled({ ...place(), target })).toEqual({ file, installed: true, command });

    // Twice adds nothing and writes nothing.
    const again = await installMcpServer({ ...place(), target, command });
    expect(again).toMatchObject({ changed: false, installed: true });
    expect(await fs.readFile(file, 'utf8')).toBe(text);

    // An upgrade (another copy) replaces ours in place.
    const upgraded = await installMcpServer({ ...place(), target, command: { ...command, args: ['/state/mcp-server/0.2.0+def/mcp-server.mjs'] } });
    expect(upgraded.changed).toBe(true);
    expect(JSON.stringify((parse(await fs.readFile(file, 'utf8')) as Record<string, Record<string, unknown>>)[key])).toContain('0.2.0+def');

    // Uninstall removes exactly ours.
    const removed = await uninstallMcpServer({ ...place(), target });
    expect(removed).toMatchObject({ changed: true, installed: false });
    const left = parse(await fs.readFile(file, 'utf8')) as Record<string, Record<string, unknown>>;
    expect(left['theme']).toBe('dark');
    expect(Object.keys(left[key] ?? {})).toEqual(['github']);
    expect(await fs.readFile(file, 'utf8')).toContain("// the user's own comment");
    expect(await uninstallMcpServer({ ...place(), target })).toMatchObject({ changed: false, installed: false });
  });

  it('creates the file when there is none, and uninstall leaves a missing file missing', async () => {
    const file = mcpClientFile(target, place());
    expect(await uninstallMcpServer({ ...place(), target })).toMatchObject({ changed: false });
    await expect(fs.stat(file)).rejects.toThrow();
    const change = await installMcpServer({ ...place(), target, command });
    expect(change).toMatchObject({ changed: true, installed: true });
    expect(change.backup).toBeUndefined();
    expect((JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, Record<string, unknown>>)[key]?.['graphiti-memory']).toEqual(entry);
  });

  it('never replaces or removes a server of that name it did not write, nor a file that is not JSON', async () => {
    const file = mcpClientFile(target, place());
    await fs.mkdir(path.dirname(file), { recursive: true });
    const theirs = JSON.stringify({ [key]: { 'graphiti-memory': { command: 'my-own-server' } } });
    await fs.writeFile(file, theirs);
    await expect(installMcpServer({ ...place(), target, command })).rejects.toThrow(/did not write.*left untouched/);
    expect(await uninstallMcpServer({ ...place(), target })).toMatchObject({ changed: false });
    expect(await fs.readFile(file, 'utf8')).toBe(theirs);
    expect(await mcpServerInstalled({ ...place(), target })).toEqual({ file, installed: false });
    await fs.writeFile(file, '{ "broken": ');
    expect(await mcpServerInstalled({ ...place(), target })).toMatchObject({ file, installed: false, problem: expect.stringContaining('not valid JSON') });
    await expect(installMcpServer({ ...place(), target, command })).rejects.toThrow(/not valid JSON.*left untouched/);
    expect(await fs.readFile(file, 'utf8')).toBe('{ "broken": ');
  });
});

describe('codex (TOML)', () => {
  const own = [
    '# my Codex settings',
    'model = "gpt-5"',
    '',
    '[mcp_servers.github]',
    'command = "npx"',
    'args = ["-y", "server-github"]',
    '',
    '[projects."/work/app"]',
    'trust_level = "trusted"',
    '',
  ].join('\n');

  it('appends our table, keeps every other line, is idempotent, and uninstall restores the file', async () => {
    const file = mcpClientFile('codex', place());
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, own);
    const change = await installMcpServer({ ...place(), target: 'codex', command: { command: '/usr/bin/node', args: ['C:\\state\\mcp "server".mjs'] } });
    expect(change).toMatchObject({ changed: true, installed: true });
    const text = await fs.readFile(file, 'utf8');
    expect(text.startsWith(own.trimEnd())).toBe(true);
    expect(text).toContain('[mcp_servers.graphiti-memory]\ncommand = "/usr/bin/node"\nargs = ["C:\\\\state\\\\mcp \\"server\\".mjs", "--installed-by", "graphiti-harness"]\n');
    expect(await mcpServerInstalled({ ...place(), target: 'codex' })).toEqual({ file, installed: true, command: { command: '/usr/bin/node', args: ['C:\\state\\mcp "server".mjs'] } });
    expect(await installMcpServer({ ...place(), target: 'codex', command: { command: '/usr/bin/node', args: ['C:\\state\\mcp "server".mjs'] } })).toMatchObject({ changed: false });
    expect(await fs.readFile(file, 'utf8')).toBe(text);

    const removed = await uninstallMcpServer({ ...place(), target: 'codex' });
    expect(removed.changed).toBe(true);
    expect((await fs.readFile(file, 'utf8')).trimEnd()).toBe(own.trimEnd());
  });

  it('replaces our table in place when it sits between the user\'s tables', async () => {
    const file = mcpClientFile('codex', place());
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, own);
    await installMcpServer({ ...place(), target: 'codex', command });
    // The user adds a table after ours; an upgrade must keep it.
    await fs.appendFile(file, '\n[mcp_servers.later]\ncommand = "later"\n');
    await installMcpServer({ ...place(), target: 'codex', command: { command: '/usr/bin/node', args: ['/new/mcp-server.mjs'] } });
    const text = await fs.readFile(file, 'utf8');
    expect(text.match(/\[mcp_servers\.graphiti-memory\]/g)).toHaveLength(1);
    expect(text).toContain('/new/mcp-server.mjs');
    expect(text).toContain('[mcp_servers.later]\ncommand = "later"');
    await uninstallMcpServer({ ...place(), target: 'codex' });
    const left = await fs.readFile(file, 'utf8');
    expect(left).not.toContain('graphiti-memory');
    expect(left).toContain('[mcp_servers.later]');
    expect(left).toContain('[mcp_servers.github]');
  });

  it('never touches a graphiti-memory server the user defined', async () => {
    const file = mcpClientFile('codex', place());
    await fs.mkdir(path.dirname(file), { recursive: true });
    const theirs = '[mcp_servers.graphiti-memory]\ncommand = "mine"\n';
    await fs.writeFile(file, theirs);
    await expect(installMcpServer({ ...place(), target: 'codex', command })).rejects.toThrow(/did not write/);
    expect(await uninstallMcpServer({ ...place(), target: 'codex' })).toMatchObject({ changed: false });
    expect(await fs.readFile(file, 'utf8')).toBe(theirs);
    await fs.writeFile(file, 'mcp_servers = { graphiti-memory = { command = "inline" } }\n');
    await expect(installMcpServer({ ...place(), target: 'codex', command })).rejects.toThrow(/did not write/);
  });
});

it('lists our server in every client, with what it runs', async () => {
  await installMcpServer({ ...place(), target: 'cursor', command });
  await installMcpServer({ ...place(), target: 'codex', command });
  const statuses = await mcpServersStatus(place());
  expect(statuses.map((status) => [status.target, status.installed])).toEqual([['claude', false], ['codex', true], ['gemini', false], ['cursor', true], ['vscode', false]]);
  expect(statuses.find((status) => status.target === 'codex')).toMatchObject({ label: 'Codex', command });
});

it('knows every target the CLI offers', () => {
  expect([...MCP_CLIENT_TARGETS]).toEqual(['claude', 'codex', 'gemini', 'cursor', 'vscode']);
});
