import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentHookStatus } from '@graphiti-memory/agent-hooks';
import { hookCommandLine } from '@graphiti-memory/agent-hooks';
import { describe, expect, it } from 'vitest';
import { assistantHooksCheck, commandWords, installedRunner, mcpServerCheck, noAssistantCheck, type McpClientStatus } from './hook-checks.js';
import { nodeVersionCheck, satisfiesMinimum, stateFolderCheck } from './runtime-checks.js';

describe('doctor checks', () => {
  it('compares Node versions with the engines range', () => {
    expect(satisfiesMinimum('v20.18.1', '>=20.18.1')).toBe(true);
    expect(satisfiesMinimum('v22.0.0', '>=20.18.1')).toBe(true);
    expect(satisfiesMinimum('v20.18.0', '>=20.18.1')).toBe(false);
    expect(satisfiesMinimum('v18.20.4', '>=20.18.1')).toBe(false);
    expect(nodeVersionCheck('v18.20.4', '>=20.18.1')).toMatchObject({ ok: false, next: expect.stringContaining('20.18.1') });
  });

  it('reads the runner of a hook command line as the installers write it (quotes, variables)', () => {
    const line = hookCommandLine({ nodePath: '/opt/my node/bin/node', scriptPath: "/home/o'brien/runner.cjs", installedBy: 'vscode', environment: { ELECTRON_RUN_AS_NODE: '1' } }, 'Stop');
    expect(commandWords(line).slice(0, 2)).toEqual(['/opt/my node/bin/node', "/home/o'brien/runner.cjs"]);
    expect(installedRunner(line)).toEqual({ path: "/home/o'brien/runner.cjs", present: false });
  });

  it('a hook whose runner is gone fails the assistant check with setup as the next step; a present runner passes', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'doctor-runner-'));
    try {
      const runner = path.join(folder, 'hook-runner.cjs');
      await fs.writeFile(runner, '');
      const command = hookCommandLine({ nodePath: process.execPath, scriptPath: runner, installedBy: 'graphiti-harness' }, 'Stop');
      const status: AgentHookStatus = { target: 'claude', file: path.join(folder, 'settings.json'), exists: true, entries: [{ event: 'Stop', command }], runner: null };
      expect(assistantHooksCheck(status, undefined, '0.1.0')).toMatchObject({ ok: true });
      // A copy the installers made names its version: another CLI's runner is named with the fix.
      const copied: AgentHookStatus = { ...status, runner: { path: runner, version: '0.0.9', present: true } };
      expect(assistantHooksCheck(copied, undefined, '0.1.0')).toMatchObject({ ok: false, summary: expect.stringContaining('runner 0.0.9, this CLI is 0.1.0'), next: expect.stringContaining('setup --target claude') });
      expect(assistantHooksCheck({ ...copied, runner: { path: runner, version: '0.1.0', present: true } }, undefined, '0.1.0')).toMatchObject({ ok: true });
      await fs.rm(runner);
      expect(assistantHooksCheck(status, undefined, '0.1.0')).toMatchObject({ ok: false, next: expect.stringContaining('setup --target claude') });
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });

  it('Codex hooks Codex does not trust fail the check, naming why and the step; trusted ones pass', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'doctor-codex-'));
    try {
      const runner = path.join(folder, 'hook-runner.cjs');
      await fs.writeFile(runner, '');
      const command = hookCommandLine({ nodePath: process.execPath, scriptPath: runner, installedBy: 'graphiti-harness' }, 'Stop', 'posix', 'codex');
      const status: AgentHookStatus = { target: 'codex', file: path.join(folder, 'hooks.json'), exists: true, entries: [{ event: 'Stop', command }], runner: null, trust: { trusted: false, detail: '1 of 1 not trusted in config.toml' } };
      expect(assistantHooksCheck(status, undefined, '0.1.0')).toMatchObject({ ok: false, summary: expect.stringContaining('will not run them: 1 of 1 not trusted'), next: expect.stringContaining('/hooks') });
      expect(assistantHooksCheck({ ...status, trust: { trusted: true, detail: 'Codex trusts all 1' } }, undefined, '0.1.0')).toMatchObject({ ok: true, summary: expect.stringContaining('Codex trusts all 1') });
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });

  it('a state folder open to others fails with chmod 700 as the next step', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'doctor-state-'));
    try {
      expect(await stateFolderCheck(folder)).toMatchObject({ ok: true });
      await fs.chmod(folder, 0o755);
      expect(await stateFolderCheck(folder)).toMatchObject({ ok: false, next: `chmod 700 ${folder}` });
      expect(await stateFolderCheck(folder, 12345)).toMatchObject({ ok: false });
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });

  it('names the MCP clients running our server, fails one whose server copy is gone, and counts an MCP-only setup as connected', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'doctor-mcp-'));
    try {
      const server = path.join(folder, 'mcp-server.mjs');
      await fs.writeFile(server, '');
      const client = (target: McpClientStatus['target'], label: string, installed: boolean, args: string[] = []): McpClientStatus => ({
        target, label, file: path.join(folder, `${target}.json`), installed, ...(installed ? { command: { command: process.execPath, args } } : {}),
      });
      const cursor = client('cursor', 'Cursor', true, [server]);
      expect(mcpServerCheck([client('claude', 'Claude Code', false), cursor])).toMatchObject({ id: 'mcp', ok: true, summary: expect.stringContaining('in Cursor') });
      expect(mcpServerCheck([client('claude', 'Claude Code', false)])).toMatchObject({ ok: true, summary: expect.stringContaining('in no MCP client') });
      await fs.rm(server);
      expect(mcpServerCheck([cursor])).toMatchObject({ ok: false, summary: expect.stringContaining('does not exist'), next: 'graphiti-harness mcp install --target cursor (copies this CLI\'s server and points Cursor at it)' });
      expect(noAssistantCheck([], [cursor])).toMatchObject({ ok: true, summary: expect.stringContaining('the MCP server only, in Cursor') });
      expect(noAssistantCheck([], [client('cursor', 'Cursor', false)])).toMatchObject({ ok: false });
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });
});
