// `setup` in a throwaway HOME: against the emulator over HTTP it connects the assistant it finds,
// records consent, proves recall with a read-only search; against something that is not Graphiti it
// stops with the health message unless --force; without a terminal it needs --yes.
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHarness } from '../cli/program.js';
import { capturedTerminal } from '../test-support/captured-terminal.js';

let root: string;
let home: string;
let emulator: RunningEmulator | undefined;
let notGraphiti: http.Server | undefined;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-setup-'));
  home = path.join(root, 'home');
  await fs.mkdir(path.join(root, 'workspace'), { recursive: true });
  await fs.mkdir(path.join(root, 'empty-bin'));
  await fs.mkdir(home);
});

afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  await new Promise((resolve) => (notGraphiti === undefined ? resolve(undefined) : notGraphiti.close(resolve)));
  notGraphiti = undefined;
  await fs.rm(root, { recursive: true, force: true });
});

async function setup(args: readonly string[]) {
  const terminal = capturedTerminal({
    cwd: path.join(root, 'workspace'),
    // A PATH with no assistant on it: only what the HOME holds is found.
    env: { HOME: home, PATH: path.join(root, 'empty-bin'), GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), GRAPHITI_MEMORY_STATE_DIR: path.join(root, 'state') },
  });
  const exitCode = await runHarness(['setup', ...args, '--state-dir', path.join(root, 'state')], { terminal });
  return { exitCode, out: terminal.out(), err: terminal.err() };
}

async function readJson(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
}

describe('setup', () => {
  it('--endpoint <emulator> --yes connects the assistant found, records consent, turns recall on, proves recall (nothing written), exit 0', async () => {
    emulator = await startEmulator({ processingDelayMs: 1 });
    await fs.mkdir(path.join(home, '.claude'));
    const run = await setup(['--endpoint', emulator.url, '--yes', '--json']);
    expect(run.exitCode, run.err).toBe(0);
    const result = JSON.parse(run.out) as { ok: boolean; targets: string[]; recall: { ok: boolean; scope: string }; next: string[]; authentication: string };
    expect(result).toMatchObject({ ok: true, targets: ['claude'], recall: { ok: true, scope: 'user' } });
    expect(result.next[0]).toContain('graphiti-harness doctor');
    expect(result.authentication).toContain('no authentication');

    // The hooks, as `hooks install` writes them; Copilot (not found) untouched.
    const settings = await readJson(path.join(home, '.claude', 'settings.json'));
    expect(JSON.stringify(settings)).toContain('--installed-by');
    await expect(fs.stat(path.join(home, '.copilot'))).rejects.toThrow();
    // The consent record `hooks install` writes, for exactly this endpoint, and recall on.
    const config = await readJson(path.join(root, 'config', 'config.json'));
    const endpoint = normaliseEndpoint(emulator.url);
    expect(config).toMatchObject({ enabled: true, endpoint, consent: { endpoint, by: 'graphiti-harness' }, recall: { enabled: true } });
    // One search of the user's own group; nothing written.
    const searches = emulator.requests.filter((request) => request.route === 'search');
    expect(searches.length).toBe(1);
    const groups = (searches[0]?.body as { group_ids?: string[] }).group_ids ?? [];
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatch(/^gm_user_/);
    expect(emulator.requests.filter((request) => request.method !== 'GET' && request.route !== 'search')).toEqual([]);
  }, 60_000);

  it('says that Graphiti has no authentication and what to do, and how to check', async () => {
    emulator = await startEmulator({ processingDelayMs: 1 });
    await fs.mkdir(path.join(home, '.claude'));
    const run = await setup(['--endpoint', emulator.url, '--yes']);
    expect(run.exitCode, run.err).toBe(0);
    const text = run.out.replace(/\s+/g, ' ');
    expect(text).toContain('Graphiti has no authentication: anyone who can reach');
    expect(text).toContain('reverse proxy');
    expect(text).toContain('graphiti-harness doctor');
  }, 60_000);

  it('stops with the health message (exit 1) against something that is not Graphiti, and changes nothing; --force connects anyway', async () => {
    notGraphiti = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>not graphiti</html>');
    });
    await new Promise<void>((resolve) => notGraphiti!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(notGraphiti.address() as AddressInfo).port}`;
    await fs.mkdir(path.join(home, '.claude'));

    const stopped = await setup(['--endpoint', url, '--yes']);
    expect(stopped.exitCode).toBe(1);
    expect(stopped.err).toContain(`Health check at ${url}`);
    expect(stopped.err).toContain('--force');
    await expect(fs.stat(path.join(home, '.claude', 'settings.json'))).rejects.toThrow();
    await expect(fs.stat(path.join(root, 'config', 'config.json'))).rejects.toThrow();

    const forced = await setup(['--endpoint', url, '--yes', '--force']);
    // Connected as asked, but memory does not work: not a success.
    expect(forced.exitCode).toBe(1);
    expect(JSON.stringify(await readJson(path.join(home, '.claude', 'settings.json')))).toContain('--installed-by');
    expect(forced.out).toContain('Connected, but memory does not work yet');
  }, 60_000);

  it('without a terminal and without --yes fails with usage (exit 2) naming --yes, and changes nothing', async () => {
    await fs.mkdir(path.join(home, '.claude'));
    const run = await setup(['--endpoint', 'http://127.0.0.1:9']);
    expect(run.exitCode).toBe(2);
    expect(run.err).toContain('--yes');
    await expect(fs.stat(path.join(home, '.claude', 'settings.json'))).rejects.toThrow();
  });

  it('with no assistant found and no --target, connects nothing and says how to choose one', async () => {
    emulator = await startEmulator({ processingDelayMs: 1 });
    const run = await setup(['--endpoint', emulator.url, '--yes']);
    expect(run.exitCode).toBe(1);
    expect(run.err).toContain('--target');
    const forced = await setup(['--endpoint', emulator.url, '--yes', '--target', 'copilot']);
    expect(forced.exitCode, forced.err).toBe(0);
    expect(JSON.stringify(await readJson(path.join(home, '.copilot', 'hooks', 'graphiti-memory.json')))).toContain('--installed-by');
  }, 60_000);
});

describe('hooks install', () => {
  it('warns loudly (stderr and --json) when nothing answers at the endpoint, and still installs (exit 0)', async () => {
    const closed = await startEmulator();
    const url = closed.url;
    await closed.close();
    const terminal = capturedTerminal({ cwd: path.join(root, 'workspace'), env: { HOME: home, GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config') } });
    const exitCode = await runHarness(['hooks', 'install', '--target', 'claude', '--endpoint', url, '--state-dir', path.join(root, 'state'), '--json'], { terminal });
    expect(exitCode).toBe(0);
    expect(terminal.err()).toMatch(/warning: .* is not a working Graphiti right now/);
    expect(terminal.err()).toContain('unreachable');
    const result = JSON.parse(terminal.out()) as { warnings: string[]; probe: { reachable: boolean } };
    expect(result.probe.reachable).toBe(false);
    expect(result.warnings).toHaveLength(1);
    expect(JSON.stringify(await readJson(path.join(home, '.claude', 'settings.json')))).toContain('--installed-by');
  }, 60_000);

  it('says nothing extra when the endpoint is a working Graphiti', async () => {
    emulator = await startEmulator({ processingDelayMs: 1 });
    const terminal = capturedTerminal({ cwd: path.join(root, 'workspace'), env: { HOME: home, GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config') } });
    const exitCode = await runHarness(['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url, '--state-dir', path.join(root, 'state'), '--json'], { terminal });
    expect(exitCode).toBe(0);
    expect(terminal.err()).not.toContain('warning');
    expect((JSON.parse(terminal.out()) as { warnings: string[] }).warnings).toEqual([]);
  }, 60_000);
});
