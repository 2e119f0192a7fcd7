// The CLI as a user gets it (issue 28, items 1 and 2): `pnpm pack:cli`'s tarball installed with npm
// alone into a throwaway prefix, run from a throwaway HOME with the checkout on no path. Its
// `--version` is the shipped package's; `hooks install` copies the runner into the user's data
// folder, so the hooks keep answering once the global package folder is moved away.
import { execFile, spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { stopHookProcesses } from '@graphiti-memory/agent-hooks';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { additionalContext, runProcess, type ProcessRun } from './hook-processes.js';
import { ensureBuilt, packageFolder } from './hook-server-fixture.js';

let root: string;
let home: string;
let prefix: string;
let workspace: string;
let tarball: string;
let emulator: RunningEmulator;
/** Only what a user's shell has: node on PATH, a HOME. No config or state overrides, no checkout. */
let env: NodeJS.ProcessEnv;

const packageDirectory = () => path.join(prefix, 'lib', 'node_modules', 'graphiti-harness');
const cli = (args: readonly string[], cwd = home): Promise<ProcessRun> => runProcess(path.join(prefix, 'bin', 'graphiti-harness'), args, '', env, cwd);

function run(file: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(file, [...args], { cwd: options.cwd, env: options.env ?? process.env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${file} ${args.join(' ')} failed: ${error.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

/** The command line hooks install wrote for `event`, run the way Claude Code runs it (a shell, the event on stdin). */
async function runInstalledHook(event: string, input: Record<string, unknown>): Promise<ProcessRun> {
  const settings = JSON.parse(await fs.readFile(path.join(home, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
  const command = settings.hooks[event]?.[0]?.hooks[0]?.command;
  if (command === undefined) throw new Error(`no ${event} hook in settings.json`);
  return runProcess('/bin/sh', ['-c', command], JSON.stringify({ session_id: 'packed-1', transcript_path: path.join(root, 'claude.jsonl'), cwd: workspace, hook_event_name: event, ...input }), env, workspace);
}

beforeAll(async () => {
  await ensureBuilt();
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'packed-cli-'));
  home = path.join(root, 'home');
  prefix = path.join(root, 'prefix');
  workspace = path.join(root, 'repo');
  await Promise.all([home, workspace].map((folder) => fs.mkdir(folder, { recursive: true })));
  const packed = await run(process.execPath, [path.join(packageFolder, 'scripts', 'pack-cli.mjs'), '--out', path.join(root, 'pack')], { cwd: packageFolder });
  tarball = packed.trim().split('\n').at(-1) ?? '';
  env = {
    PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
    HOME: home,
    NO_COLOR: '1',
    // Each event in a process of its own: it must load the core from the runner copy.
    GRAPHITI_MEMORY_HOOK_SERVER: '0',
  };
  // npm alone, offline: the tarball needs nothing from a registry.
  await run('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], {
    cwd: home,
    env: { ...env, npm_config_cache: path.join(root, 'npm-cache'), npm_config_update_notifier: 'false' },
  });
  emulator = await startEmulator({ processingDelayMs: 1 });
}, 600_000);

afterAll(async () => {
  // A drainer the hooks started leaves before its folder goes.
  if (env !== undefined) await stopHookProcesses(env, path.join(home, '.local', 'share', 'graphiti-harness'), 5_000);
  await emulator?.close();
  if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
});

describe('the packed graphiti-harness, installed with npm', () => {
  it('is one package with no dependencies, named graphiti-harness, at the workspace version', async () => {
    expect(path.basename(tarball)).toMatch(/^graphiti-harness-\d+\.\d+\.\d+.*\.tgz$/);
    const shipped = JSON.parse(await fs.readFile(path.join(packageDirectory(), 'package.json'), 'utf8')) as Record<string, unknown>;
    const workspaceVersion = (JSON.parse(await fs.readFile(path.join(packageFolder, 'package.json'), 'utf8')) as { version: string }).version;
    expect(shipped).toMatchObject({ name: 'graphiti-harness', version: workspaceVersion, bin: { 'graphiti-harness': './bin/graphiti-harness.js' } });
    expect(shipped['dependencies']).toBeUndefined();
    expect(existsSync(path.join(packageDirectory(), 'node_modules'))).toBe(false);
  });

  it('prints the version of the package.json that ships', async () => {
    // Rewritten in the installed copy: the version comes from the file, not from the build.
    const manifest = path.join(packageDirectory(), 'package.json');
    const shipped = JSON.parse(await fs.readFile(manifest, 'utf8')) as Record<string, unknown>;
    await fs.writeFile(manifest, JSON.stringify({ ...shipped, version: '9.8.7' }));
    try {
      const version = await cli(['--version']);
      expect(version.exitCode, version.stderr).toBe(0);
      expect(version.stdout.trim()).toBe('9.8.7');
    } finally {
      await fs.writeFile(manifest, JSON.stringify(shipped, null, 2));
    }
  }, 120_000);

  it('serves the memory page from the files it ships (graphiti-harness ui)', async () => {
    const child = spawn(path.join(prefix, 'bin', 'graphiti-harness'), ['ui', '--endpoint', emulator.url, '--workspace', workspace], { cwd: home, env });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
        });
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
        child.on('exit', (code) => reject(new Error(`ui exited (${code}) before printing its address: ${err}`)));
      });
      const opened = await fetch(url, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      for (const [file, type] of [['/', 'text/html'], ['/memory-page.js', 'text/javascript'], ['/memory-page.css', 'text/css']] as const) {
        const answer = await fetch(new URL(file, url), { headers: { cookie } });
        expect(answer.status, file).toBe(200);
        expect(answer.headers.get('content-type')).toContain(type);
      }
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);

  it('runs the demo offline from a throwaway HOME', async () => {
    const demo = await cli(['demo']);
    expect(demo.stdout).toContain('Demo passed.');
    expect(demo.exitCode, demo.stderr).toBe(0);
  }, 180_000);

  it('installs hooks that run a runner copied into the data folder, which keep answering once the global package is moved away', async () => {
    const installed = await cli(['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url]);
    expect(installed.exitCode, installed.stderr).toBe(0);
    const version = (JSON.parse(await fs.readFile(path.join(packageDirectory(), 'package.json'), 'utf8')) as { version: string }).version;
    // The data folder (env-paths' on this platform): ~/.local/share/graphiti-harness on Linux.
    const runners = process.platform === 'linux' ? path.join(home, '.local', 'share', 'graphiti-harness', 'runner') : undefined;
    const settingsText = await fs.readFile(path.join(home, '.claude', 'settings.json'), 'utf8');
    expect(settingsText).not.toContain(prefix);
    if (runners !== undefined) {
      const [copy] = await fs.readdir(runners);
      expect(copy).toMatch(new RegExp(`^${version.replace(/\./g, '\\.')}\\+[0-9a-f]+$`));
      expect(settingsText).toContain(path.join(runners, copy ?? '', 'hook-runner.cjs'));
    }
    const promoted = await cli(['promote', 'We deploy the billing API with blue-green releases.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', emulator.url, '--workspace', workspace]);
    expect(promoted.exitCode, promoted.stderr).toBe(0);
    await emulator.idle();

    // The global package (and with it the runner it shipped) moved away; the checkout is on no path.
    await fs.rename(packageDirectory(), `${packageDirectory()}-moved`);
    try {
      // Sessions of their own: what a session's brief said is not said again by its recall.
      const start = await runInstalledHook('SessionStart', { session_id: 'packed-start', source: 'startup' });
      expect(start.exitCode, start.stderr).toBe(0);
      const prompt = await runInstalledHook('UserPromptSubmit', { session_id: 'packed-prompt', prompt: 'How do we deploy the billing API?' });
      expect(prompt.exitCode, prompt.stderr).toBe(0);
      expect(additionalContext(prompt)).toContain('blue-green releases');
    } finally {
      await fs.rename(`${packageDirectory()}-moved`, packageDirectory());
    }

    const status = await cli(['hooks', 'status', '--json']);
    const claude = (JSON.parse(status.stdout) as { installed: Array<{ target: string; runner: { path: string; version: string; present: boolean } | null }> }).installed.find((entry) => entry.target === 'claude');
    expect(claude?.runner).toMatchObject({ version, present: true });
    const removed = await cli(['hooks', 'uninstall']);
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(existsSync(path.dirname(claude?.runner?.path ?? ''))).toBe(false);
  }, 300_000);

  it('installs the MCP server into Claude Code as a copy in the data folder, which keeps serving memory once the global package is moved away', async () => {
    // Consent for the endpoint (what setup records) and a memory to recall.
    expect((await cli(['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url])).exitCode).toBe(0);
    const promoted = await cli(['promote', 'Releases of the billing API ship on Tuesdays.', '--kind', 'decision', '--scope', 'workspace', '--workspace', workspace]);
    expect(promoted.exitCode, promoted.stderr).toBe(0);
    await emulator.idle();
    const installed = await cli(['mcp', 'install', '--target', 'claude', '--json']);
    expect(installed.exitCode, installed.stderr).toBe(0);
    const entry = (JSON.parse(await fs.readFile(path.join(home, '.claude.json'), 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers['graphiti-memory'];
    expect(entry?.command).toBe(process.execPath);
    expect(JSON.stringify(entry)).not.toContain(prefix);
    if (process.platform === 'linux') expect(entry?.args[0]).toMatch(new RegExp(`^${path.join(home, '.local', 'share', 'graphiti-harness', 'mcp-server').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`));

    await fs.rename(packageDirectory(), `${packageDirectory()}-moved`);
    const client = new Client({ name: 'packed-test', version: '1.0.0' });
    try {
      await client.connect(new StdioClientTransport({ command: entry?.command ?? '', args: entry?.args ?? [], cwd: workspace, env: env as Record<string, string>, stderr: 'pipe' }));
      const answer = await client.callTool({ name: 'memory_recall', arguments: { query: 'when do releases of the billing API ship', scopes: ['workspace'] } });
      expect(JSON.stringify(answer.content)).toContain('Tuesdays');
    } finally {
      await client.close();
      await fs.rename(`${packageDirectory()}-moved`, packageDirectory());
    }
    const removed = await cli(['mcp', 'uninstall', '--target', 'claude', '--json']);
    expect(JSON.parse(removed.stdout)).toMatchObject({ ok: true, changed: true });
    expect((await cli(['hooks', 'uninstall'])).exitCode).toBe(0);
  }, 300_000);
});
