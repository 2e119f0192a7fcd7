// Contract tests of the agent hook: the BUILT dist/hook-runner.cjs, spawned as Claude Code and VS
// Code's Copilot agent mode spawn it (event JSON on stdin), against the emulator over HTTP. Every
// run uses a temporary HOME and config folder, never the real ones.
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runnerBuild } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { MAX_RECALL_QUERY_CHARS } from '@graphiti-memory/memory-core';
import { userConfigPath } from '@graphiti-memory/memory-node-storage';
import { additionalContext, claudeTranscriptLine, loggedRuns, messagesSent as sentTo, runNode, waitFor, type LoggedRun, type ProcessRun } from './hook-processes.js';
import { endHookTest, ensureBuilt, harnessBinary, packageFolder, startHookTest, type HookTest } from './hook-server-fixture.js';

const runner = hookRunnerFile();

let test: HookTest;
let emulator: RunningEmulator;
let root: string;
let home: string;
let stateDir: string;
let workspace: string;

function hook(event: string, input: unknown, extraEnv: NodeJS.ProcessEnv = {}): Promise<ProcessRun> {
  return runNode(test, [runner, '--event', event, '--installed-by', 'test'], typeof input === 'string' ? input : JSON.stringify(input), { env: extraEnv });
}

function harness(args: readonly string[]): Promise<ProcessRun> {
  return runNode(test, [harnessBinary, ...args]);
}

/** What Claude Code sends (https://docs.claude.com/en/docs/claude-code/hooks). */
function claudeInput(event: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { session_id: 'claude-session-1', transcript_path: path.join(root, 'claude.jsonl'), cwd: workspace, permission_mode: 'default', hook_event_name: event, ...fields };
}

/** What VS Code's Copilot agent mode sends (ChatHookService in code-server 4.139.1). */
function copilotInput(event: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { timestamp: new Date().toISOString(), hook_event_name: event, session_id: 'copilot-session-1', transcript_path: path.join(root, 'copilot.jsonl'), ...fields, cwd: workspace };
}

const runs = (): Promise<LoggedRun[]> => loggedRuns(stateDir);
const messagesSent = () => sentTo(emulator);
const claudeLine = (type: 'user' | 'assistant', uuid: string, text: string, second: number): string => claudeTranscriptLine(type, uuid, text, { cwd: workspace, second });

async function install(): Promise<void> {
  const result = await harness(['hooks', 'install', '--target', 'all', '--endpoint', emulator.url, '--state-dir', stateDir]);
  expect(result.exitCode, result.stderr).toBe(0);
  // install's own health probe of the endpoint is not a hook's request: the tests count those.
  emulator.clearRequests();
}

/** Sets `capture.*` in the user's config file (after `install`, which writes it). */
async function configureCapture(capture: Record<string, unknown>): Promise<void> {
  const file = userConfigPath({ GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config') });
  const current = JSON.parse(await fs.readFile(file, 'utf8')) as { capture?: Record<string, unknown> };
  await fs.writeFile(file, JSON.stringify({ ...current, capture: { ...current.capture, ...capture } }));
}

/** The tests of per-message capture mechanics (backfill, Copilot's loop) choose per-message episodes. */
const perMessage = (): Promise<void> => configureCapture({ granularity: 'turn' });

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('hook-contract-');
  ({ emulator, root, home, stateDir, workspace } = test);
});

afterEach(() => endHookTest(test));

describe('without consent or config', () => {
  it('makes no network call and prints nothing when hooks were never installed (exit 0)', async () => {
    for (const input of [claudeInput('UserPromptSubmit', { prompt: 'which package manager?' }), copilotInput('SessionStart', { source: 'new' })]) {
      const result = await hook(String(input['hook_event_name']), input, { GRAPHITI_MEMORY_ENDPOINT: emulator.url });
      expect(result).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    }
    expect(emulator.requests).toHaveLength(0);
  });

  it('makes no network call with enabled: false, even with consent', async () => {
    await install();
    await fs.writeFile(path.join(workspace, '.graphiti-memory.json'), JSON.stringify({ enabled: false }));
    const result = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'which package manager?' }));
    expect(result).toMatchObject({ exitCode: 0, stdout: '' });
    expect(emulator.requests).toHaveLength(0);
    expect((await runs()).at(-1)).toMatchObject({ event: 'UserPromptSubmit', outcome: 'disabled' });
  });

  it("stays silent when the user turned memory off and a repository's untrusted project file says enabled: true; hook.log names the key once", async () => {
    await install();
    const userFile = path.join(root, 'config', 'config.json');
    const user = JSON.parse(await fs.readFile(userFile, 'utf8')) as Record<string, unknown>;
    await fs.writeFile(userFile, JSON.stringify({ ...user, enabled: false }));
    const projectFile = path.join(workspace, '.graphiti-memory.json');
    await fs.writeFile(projectFile, JSON.stringify({ enabled: true, recall: { enabled: true } }));
    for (let run = 0; run < 2; run++) {
      const result = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'which package manager?' }));
      expect(result).toMatchObject({ exitCode: 0, stdout: '' });
    }
    expect(emulator.requests).toHaveLength(0);
    expect((await runs()).at(-1)).toMatchObject({ event: 'UserPromptSubmit', outcome: 'disabled' });
    const log = await fs.readFile(path.join(stateDir, 'hooks', 'hook.log'), 'utf8');
    expect(log.match(new RegExp(`project-file ignored enabled \\(${projectFile.replace(/[.\\/]/g, '\\$&')}\\)`, 'g'))).toHaveLength(1);
    expect(log).not.toContain('which package manager');
  });

  it('does not send to an endpoint other than the one consented to', async () => {
    await install();
    const other = await startEmulator({});
    try {
      const result = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'which package manager?' }), { GRAPHITI_MEMORY_ENDPOINT: other.url });
      expect(result).toMatchObject({ exitCode: 0, stdout: '' });
      expect(other.requests).toHaveLength(0);
      expect((await runs()).at(-1)?.outcome).toBe('no-consent');
    } finally {
      await other.close();
    }
  });
});

describe('bad input', () => {
  it.each([
    ['garbage', 'this is not json {'],
    ['empty', ''],
    ['an array', '[1,2,3]'],
    ['an unknown event', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash' })],
  ])('exits 0 with no output on %s stdin and logs it', async (_label, stdin) => {
    await install();
    const result = await runNode(test, [runner], stdin);
    expect(result).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(emulator.requests).toHaveLength(0);
    expect((await runs()).at(-1)?.outcome).toBe('bad-input');
  });

  it('logs a 5 MB hook input as a prompt too large, not as bad JSON, and sends nothing', async () => {
    await install();
    const huge = JSON.stringify(claudeInput('UserPromptSubmit', { prompt: 'p'.repeat(5 * 1024 * 1024) }));
    const result = await hook('UserPromptSubmit', huge);
    expect(result).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(emulator.requests).toHaveLength(0);
    const last = (await runs()).at(-1);
    expect(last).toMatchObject({ event: 'UserPromptSubmit', outcome: 'prompt-too-large' });
    expect(last?.detail).toContain('prompt too large');
  });

  it("ignores and names a bad value in a repository's project file: memory goes on there", async () => {
    await install();
    await fs.writeFile(path.join(workspace, '.graphiti-memory.json'), '{ "recall": { "maxFacts": 500, "maxFacs": 3 } }');
    const result = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'which package manager?' }));
    expect(result).toMatchObject({ exitCode: 0, stderr: '' });
    expect(result.stdout).not.toContain('systemMessage');
    expect((await runs()).at(-1)).toMatchObject({ event: 'UserPromptSubmit' });
    expect((await runs()).at(-1)?.outcome).not.toBe('bad-config');
    const log = await fs.readFile(path.join(stateDir, 'hooks', 'hook.log'), 'utf8');
    expect(log).not.toContain('bad-config');
    expect(log).toContain('project-file ignored recall.maxFacts');
    expect(log).toContain('project-file ignored recall.maxFacs');
  });

  it('tells the user a typo in config.json once per session (systemMessage naming the file, the key and the nearest key), never the model', async () => {
    await install();
    const userFile = path.join(root, 'config', 'config.json');
    const user = JSON.parse(await fs.readFile(userFile, 'utf8')) as Record<string, unknown>;
    await fs.writeFile(userFile, JSON.stringify({ ...user, recal: { enabled: true } }));
    const first = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'which package manager?' }));
    expect(first).toMatchObject({ exitCode: 0, stderr: '' });
    const output = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(Object.keys(output)).toEqual(['systemMessage']);
    expect(output['systemMessage']).toContain(`${userFile}: unknown key \`recal\`; did you mean \`recall\`?`);
    expect(first.stdout).not.toContain('additionalContext');
    expect(first.stdout).not.toMatch(/delete/i);
    // The same session is not told again; a new one is, once.
    for (const event of ['UserPromptSubmit', 'SessionStart'] as const) {
      expect((await hook(event, claudeInput(event, { prompt: 'again?' }))).stdout).toBe('');
    }
    const other = await hook('SessionStart', claudeInput('SessionStart', { session_id: 'claude-session-2', source: 'startup' }));
    expect(Object.keys(JSON.parse(other.stdout) as object)).toEqual(['systemMessage']);
    expect(emulator.requests).toHaveLength(0);
    expect((await runs()).at(-1)).toMatchObject({ outcome: 'bad-config' });
  });
});

describe('UserPromptSubmit', () => {
  it.each([
    ['Claude Code', claudeInput],
    ['Copilot agent mode', copilotInput],
  ])('recalls what the harness promoted in the same workspace and prints it as additionalContext (%s)', async (_host, input) => {
    await install();
    const promoted = await harness(['promote', 'We always use pnpm as the package manager in this repository.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    expect(promoted.exitCode, promoted.stderr).toBe(0);
    await emulator.idle();
    const result = await hook('UserPromptSubmit', input('UserPromptSubmit', { prompt: 'Which package manager do we use here?' }));
    expect(result.exitCode).toBe(0);
    const parsed = JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string } };
    expect(parsed.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    const context = additionalContext(result);
    expect(context).toMatch(/^<graphiti_memory>\n/);
    expect(context).toContain('We always use pnpm as the package manager');
    expect(context).toMatch(/<\/graphiti_memory>$/);
    expect((await runs()).at(-1)).toMatchObject({ event: 'UserPromptSubmit', outcome: 'context' });
  });

  it("speaks Graphiti's MCP server face too (server: auto finds it)", async () => {
    const mcp = await startEmulator({ processingDelayMs: 1, face: 'mcp' });
    try {
      const installed = await harness(['hooks', 'install', '--target', 'claude', '--endpoint', mcp.url, '--state-dir', stateDir]);
      expect(installed.exitCode, installed.stderr).toBe(0);
      const promoted = await harness(['promote', 'We deploy the billing API with blue-green releases.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', mcp.url, '--state-dir', stateDir, '--workspace', workspace]);
      expect(promoted.exitCode, promoted.stderr).toBe(0);
      await mcp.idle();
      const result = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'How do we deploy the billing API?' }));
      expect(result.exitCode).toBe(0);
      expect(additionalContext(result)).toContain('blue-green releases');
      expect((await runs()).at(-1)).toMatchObject({ event: 'UserPromptSubmit', outcome: 'context' });
    } finally {
      await mcp.close();
    }
  });

  it("finds the workspace of a Copilot event without cwd (run in HOME) through VS Code's workspace storage", async () => {
    await install();
    await harness(['promote', 'We always use pnpm as the package manager in this repository.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    await emulator.idle();
    const storage = path.join(root, 'Code', 'User', 'workspaceStorage', 'f00d');
    await fs.mkdir(path.join(storage, 'GitHub.copilot-chat', 'transcripts'), { recursive: true });
    await fs.writeFile(path.join(storage, 'workspace.json'), JSON.stringify({ folder: pathToFileURL(workspace).href }));
    const { cwd: _cwd, ...input } = copilotInput('UserPromptSubmit', { prompt: 'Which package manager do we use here?', transcript_path: path.join(storage, 'GitHub.copilot-chat', 'transcripts', 'copilot-session-1.jsonl') });
    const result = await runNode(test, [runner], JSON.stringify(input), { cwd: home });
    expect(additionalContext(result)).toContain('We always use pnpm');
  });

  it('sends a bounded query for a 3 MB prompt: its start and end, a few KB, never the whole prompt', async () => {
    await install();
    const prompt = `Which package manager do we use? ${'pasted build log line\n'.repeat(140_000)} so, which one?`;
    expect(prompt.length).toBeGreaterThan(3_000_000);
    const result = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt }));
    expect(result.exitCode, result.stderr).toBe(0);
    const searches = emulator.requests.filter((request) => request.route === 'search');
    expect(searches.length).toBeGreaterThan(0);
    for (const search of searches) {
      const query = (search.body as { query: string }).query;
      expect(query.length).toBeLessThanOrEqual(MAX_RECALL_QUERY_CHARS);
      expect(query.startsWith('Which package manager do we use?')).toBe(true);
      expect(query.endsWith('so, which one?')).toBe(true);
    }
  });

  it('prints nothing when nothing is found', async () => {
    await install();
    const result = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'Which package manager do we use here?' }));
    expect(result).toMatchObject({ exitCode: 0, stdout: '' });
    expect(emulator.requests.some((request) => request.route === 'search')).toBe(true);
  });

  it('never sends a secret in the prompt to Graphiti', async () => {
    await install();
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: `why does GITHUB_TOKEN=${token} fail?` }));
    const searches = emulator.requests.filter((request) => request.route === 'search');
    expect(searches.length).toBeGreaterThan(0);
    expect(JSON.stringify(searches.map((request) => request.body))).not.toContain(token);
  });

  it('holds the deadline against a hanging Graphiti (exit 0), and falls back to the local tier marked as cached', async () => {
    await install();
    await harness(['promote', 'We always use pnpm as the package manager in this repository.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    await emulator.idle();
    // A first recall fills the local tier.
    const warm = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'Which package manager do we use here?' }));
    expect(additionalContext(warm)).toContain('pnpm');
    const fast = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'Which package manager do we use here?' }));
    emulator.setFaults({ search: { hangRate: 1 } });
    // Another session: the first one was given the fact already, so its fallback would not repeat it.
    const hanging = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'Which package manager do we use here?', session_id: 'claude-session-2' }), {});
    expect(hanging.exitCode).toBe(0);
    const context = additionalContext(hanging);
    expect(context).toContain('Graphiti did not answer in time');
    expect(context).toMatch(/cached (less than a minute|\d+ minutes?) ago/);
    expect(context).toContain('pnpm');
    // The 750 ms deadline plus process start, with room for a loaded CI machine.
    expect(hanging.elapsedMs - fast.elapsedMs).toBeLessThan(750 + 1_500);
    expect((await runs()).at(-1)).toMatchObject({ outcome: 'cached' });
    // Without a tier to fall back on it prints nothing.
    const other = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'Which database engine runs production?' }));
    expect(other).toMatchObject({ exitCode: 0, stdout: '' });
  });
});

describe('SessionStart', () => {
  it('prints the brief of promoted memories, also from the tier when Graphiti hangs', async () => {
    await install();
    await harness(['promote', 'Releases are cut from the main branch only.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    await harness(['promote', 'Answer in British English.', '--kind', 'preference', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    await emulator.idle();
    const first = await hook('SessionStart', claudeInput('SessionStart', { source: 'startup' }));
    expect(first.exitCode).toBe(0);
    const brief = additionalContext(first);
    expect(brief).toContain('[workspace decision] Releases are cut from the main branch only.');
    expect(brief).toContain('[workspace preference] Answer in British English.');
    emulator.setFaults({ '*': { hangRate: 1 } });
    const offline = await hook('SessionStart', copilotInput('SessionStart', { source: 'new' }));
    expect(offline.exitCode).toBe(0);
    expect(additionalContext(offline)).toContain('Releases are cut from the main branch only.');
    expect(offline.elapsedMs).toBeLessThan(5_000);
  });
});

describe('one audit log', () => {
  interface Audited {
    readonly entries: Array<{ tool?: string; face?: string; operation: string; kind: string; groupIds: string[]; endpoint: string; bytes: number }>;
  }
  const audit = async (...args: string[]) => JSON.parse((await harness(['audit', '--json', '--state-dir', stateDir, ...args])).stdout) as Audited;

  // Needs the hook composition to audit every run (recall included) and both compositions to name
  // their tool (`auditedConnection(…, { endpoint, tool })`): openMemory does the first; enable when
  // the harness and hook runs use it with `tool` passed through.
  it("lists a hook's recall and the harness's ingest in one `audit --json`, with tool, face and operation, never the prompt", async () => {
    await install();
    const file = path.join(root, 'session.jsonl');
    await fs.writeFile(file, [{ role: 'user', content: 'We always use pnpm here.', timestamp: '2026-11-23T09:00:00Z' }, { role: 'assistant', content: 'Noted.', timestamp: '2026-11-23T09:00:05Z' }].map((line) => JSON.stringify(line)).join('\n') + '\n');
    const ingest = await harness(['ingest', file, '--session', 's-1', '--wait', '20', '--json', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    expect(ingest.exitCode, ingest.stderr).toBe(0);
    const prompt = 'Which package manager do we use here?';
    await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt }));
    const { entries } = await audit();
    expect(entries.filter((entry) => entry.tool === 'graphiti-harness').map((entry) => `${entry.face} ${entry.operation}`)).toContain('rest POST /messages');
    const recall = entries.filter((entry) => entry.tool === 'agent-hooks' && entry.kind === 'search');
    expect(recall.length).toBe(emulator.requests.filter((request) => request.route === 'search').length);
    expect(recall[0]).toMatchObject({ face: 'rest', operation: 'POST /search', bytes: prompt.length });
    expect(JSON.stringify(entries)).not.toMatch(/package manager|pnpm/);
  });

  it('`--endpoint` and `--since` filter what the harness and the hooks sent', async () => {
    await install();
    const file = path.join(root, 'session.jsonl');
    await fs.writeFile(file, [{ role: 'user', content: 'We always use pnpm here.', timestamp: '2026-11-23T09:00:00Z' }, { role: 'assistant', content: 'Noted.', timestamp: '2026-11-23T09:00:05Z' }].map((line) => JSON.stringify(line)).join('\n') + '\n');
    const ingest = await harness(['ingest', file, '--session', 's-1', '--wait', '20', '--json', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    expect(ingest.exitCode, ingest.stderr).toBe(0);
    const all = (await audit()).entries;
    expect(all.length).toBeGreaterThan(0);
    expect((await audit('--endpoint', `${emulator.url.toUpperCase()}/`)).entries).toHaveLength(all.length);
    expect((await audit('--endpoint', 'http://graphiti.example:8000')).entries).toEqual([]);
    expect((await audit('--since', '1h')).entries).toHaveLength(all.length);
    expect((await audit('--since', new Date(Date.now() + 60_000).toISOString())).entries).toEqual([]);
  });
});

describe('pending memories', () => {
  /** A plain JSONL transcript whose user turn holds a directive (review is on by default). */
  async function transcriptWithDirective(): Promise<string> {
    const file = path.join(root, 'directive.jsonl');
    const lines = [
      { role: 'user', content: 'Let us settle the settings library.\ndecision (workspace): adopt zod for settings', timestamp: '2026-11-23T09:00:00Z' },
      { role: 'assistant', content: 'Noted.', timestamp: '2026-11-23T09:00:05Z' },
    ];
    await fs.writeFile(file, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    return file;
  }

  it('a directive held for review is listed by `pending list`, and the next SessionStart brief says 1 awaits review', async () => {
    await install();
    const before = await hook('SessionStart', claudeInput('SessionStart', { source: 'startup' }));
    expect(before.stdout).not.toContain('await');
    const file = await transcriptWithDirective();
    const ingest = await harness(['ingest', file, '--session', 'directive-1', '--wait', '20', '--json', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    expect(ingest.exitCode, ingest.stderr).toBe(0);
    const listed = JSON.parse((await harness(['pending', 'list', '--json', '--state-dir', stateDir])).stdout) as { pending: Array<{ kind: string; text: string }> };
    expect(listed.pending.map((memory) => [memory.kind, memory.text])).toEqual([['decision', 'adopt zod for settings']]);
    const start = await hook('SessionStart', claudeInput('SessionStart', { source: 'startup' }));
    expect(start.exitCode).toBe(0);
    const brief = additionalContext(start);
    expect(brief).toContain('1 memory awaits your review: run `graphiti-harness pending list`, or open the Graphiti Memory view in VS Code.');
    expect(brief).not.toContain('adopt zod');
  });

  it.runIf(process.platform !== 'win32')('keeps the state private after hook runs and harness commands: folders 0700, files 0600', async () => {
    // A state folder an older version left open to other users is closed by the first run.
    await fs.mkdir(stateDir, { recursive: true });
    await fs.chmod(stateDir, 0o755);
    await install();
    await hook('SessionStart', claudeInput('SessionStart', { source: 'startup' }));
    const ingest = await harness(['ingest', await transcriptWithDirective(), '--session', 'directive-2', '--wait', '20', '--json', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    expect(ingest.exitCode, ingest.stderr).toBe(0);
    await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'Which settings library do we use?' }));
    await hook('UserPromptSubmit', '{ not json');
    const open: string[] = [];
    const walk = async (folder: string): Promise<void> => {
      if (((await fs.stat(folder)).mode & 0o777) !== 0o700) open.push(`${path.relative(stateDir, folder) || '.'}/`);
      for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
        // proper-lockfile's lock folders exist only while a lock is held.
        if (entry.name.endsWith('.lock')) continue;
        const file = path.join(folder, entry.name);
        if (entry.isDirectory()) await walk(file);
        else if (((await fs.stat(file)).mode & 0o777) !== 0o600) open.push(path.relative(stateDir, file));
      }
    };
    await walk(stateDir);
    expect(open).toEqual([]);
    for (const file of ['hooks/hook.log', 'hooks/runs.jsonl', 'pending-memories.json', 'audit/audit.jsonl']) expect(existsSync(path.join(stateDir, file)), file).toBe(true);
  });

  // Needs the hook composition to bind the shared FilePendingMemoryStore (openMemory does; hook-memory.ts
  // binds none, so a hook's Stop drops review-held directives). Enable when hook runs use openMemory.
  it("a directive in a Stop transcript waits in the shared pending file: `pending list` shows it, SessionStart counts it", async () => {
    await install();
    const transcript = path.join(root, 'claude.jsonl');
    await fs.writeFile(
      transcript,
      [claudeLine('user', 'u-1', 'Settle it.\ndecision (workspace): adopt zod for settings', 0), claudeLine('assistant', 'a-1', 'Noted.', 2)].join('\n') + '\n',
    );
    expect(await hook('Stop', claudeInput('Stop', { stop_hook_active: false }))).toMatchObject({ exitCode: 0, stdout: '' });
    const listed = JSON.parse((await harness(['pending', 'list', '--json', '--state-dir', stateDir])).stdout) as { pending: Array<{ kind: string; text: string }> };
    expect(listed.pending.map((memory) => [memory.kind, memory.text])).toEqual([['decision', 'adopt zod for settings']]);
    expect(additionalContext(await hook('SessionStart', claudeInput('SessionStart', { source: 'startup' })))).toContain('1 memory awaits your review');
  });
});

describe('pending memories belong to their groups (issue 29)', () => {
  it('a directive a Stop captured is held, not sent (autoPromote unset); `forget --scope workspace` drops it, so `pending list` is empty', async () => {
    await install();
    const transcript = path.join(root, 'claude.jsonl');
    await fs.writeFile(
      transcript,
      [claudeLine('user', 'u-1', 'Settle it.\npreference (user): answers in British English', 0), claudeLine('assistant', 'a-1', 'Noted.', 2)].join('\n') + '\n',
    );
    expect(await hook('Stop', claudeInput('Stop', { stop_hook_active: false }))).toMatchObject({ exitCode: 0, stdout: '' });
    const pendingList = async () => (JSON.parse((await harness(['pending', 'list', '--json', '--state-dir', stateDir])).stdout) as { pending: Array<{ kind: string; text: string; groupIds?: string[] }> }).pending;
    const [held] = await pendingList();
    expect(held).toMatchObject({ kind: 'preference', text: 'answers in British English' });
    // Its own group (the user's) and the groups of the turn it was said in (this workspace's, this session's).
    expect(held?.groupIds).toEqual(expect.arrayContaining([expect.stringMatching(/^gm_user_/), expect.stringMatching(/^gm_workspace_/), expect.stringMatching(/^gm_session_/)]));
    expect(messagesSent().filter((message) => message.content.includes('graphiti_episode'))).toEqual([]);
    const forgot = await harness(['forget', '--scope', 'workspace', '--yes', '--json', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    expect(forgot.exitCode, forgot.stderr).toBe(0);
    expect(JSON.parse(forgot.stdout)).toMatchObject({ droppedPending: 1 });
    expect(await pendingList()).toEqual([]);
  }, 120_000);
});

describe('Stop and SessionEnd', () => {
  it('sends a Claude Code session as one digest per group at SessionEnd, each turn once, and a detached drainer delivers it', async () => {
    await install();
    const transcript = path.join(root, 'claude.jsonl');
    await fs.writeFile(transcript, [claudeLine('user', 'u-1', 'Set up the lint rules for the monorepo.', 0), claudeLine('assistant', 'a-1', 'I added the layer rule to eslint.', 2)].join('\n') + '\n');
    const first = await hook('Stop', claudeInput('Stop', { stop_hook_active: false }));
    expect(first).toMatchObject({ exitCode: 0, stdout: '' });
    // Repeated event, nothing new: nothing taken again.
    await hook('Stop', claudeInput('Stop', { stop_hook_active: false }));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // The session is still going: its turn waits in the open digest segment, nothing is sent yet.
    expect(messagesSent()).toEqual([]);
    await fs.appendFile(transcript, [claudeLine('user', 'u-2', 'Now add a changeset for it.', 10), claudeLine('assistant', 'a-2', 'Added .changeset/lint-rules.md.', 12)].join('\n') + '\n');
    const second = await hook('SessionEnd', claudeInput('SessionEnd', { reason: 'prompt_input_exit' }));
    expect(second).toMatchObject({ exitCode: 0, stdout: '' });
    // One digest of both turns × (session + workspace group).
    await waitFor(() => messagesSent().length >= 2, '2 digests sent');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const sent = messagesSent();
    expect(sent).toHaveLength(2);
    for (const message of sent) {
      expect(message.name).toMatch(/^graphiti-memory\.digest\./);
      expect(message.content).toContain('user: Set up the lint rules for the monorepo.');
      expect(message.content).toContain('I added the layer rule to eslint.');
      expect(message.content).toContain('user: Now add a changeset for it.');
    }
    expect(new Set(sent.map((message) => message.group)).size).toBe(2);
    await waitFor(async () => (await runs()).some((run) => run.event === 'drain' && run.outcome === 'delivered'), 'a delivering drain');
    // The Stop hook returned before the delivery: queueing is all it waited for.
    expect((await runs()).filter((run) => run.event === 'Stop').map((run) => run.outcome)).toEqual(['queued', 'nothing-new']);

    // The session resumed (its transcript grows again): the next digest holds only the new turn.
    await fs.appendFile(transcript, [claudeLine('user', 'u-3', 'Bump the version too.', 20), claudeLine('assistant', 'a-3', 'Bumped it to 1.1.0.', 22)].join('\n') + '\n');
    await hook('Stop', claudeInput('Stop', { stop_hook_active: false }));
    await hook('SessionEnd', claudeInput('SessionEnd', { reason: 'prompt_input_exit' }));
    await waitFor(() => messagesSent().length >= 4, '2 more digests sent');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const resumed = messagesSent().slice(2);
    expect(resumed).toHaveLength(2);
    for (const message of resumed) {
      expect(message.content).toContain('Bump the version too.');
      expect(message.content).not.toContain('Set up the lint rules');
      expect(message.content).not.toContain('Now add a changeset');
    }
    expect(new Set(messagesSent().map((message) => `${message.group}\n${message.name}`)).size).toBe(4);
    await waitFor(async () => (await runs()).filter((run) => run.event === 'drain' && run.outcome === 'delivered').length >= 2, 'a second delivering drain');

    // Hooks share the registry and the audit log with the harness: audit lists what they sent,
    // and forgetting the workspace deletes every group they wrote.
    const posts = emulator.requests.filter((request) => request.route === 'messages').length;
    const audited = async () => JSON.parse((await harness(['audit', '--json', '--state-dir', stateDir])).stdout) as { requests: number; entries: Array<{ groupIds: string[]; face: string; operation: string }> };
    // The drainer's tier refresh is audited too (searches); the writes are the hooks' messages.
    const writes = async () => (await audited()).entries.filter((entry) => entry.operation === 'POST /messages');
    await waitFor(async () => (await writes()).length === posts, 'every write audited');
    expect(new Set((await writes()).flatMap((entry) => entry.groupIds))).toEqual(new Set(sent.map((message) => message.group)));
    expect(new Set((await audited()).entries.map((entry) => `${entry.face} ${entry.operation}`))).toEqual(new Set(['rest POST /messages', 'rest POST /search']));
    const forgot = await harness(['forget', '--scope', 'workspace', '--yes', '--json', '--endpoint', emulator.url, '--state-dir', stateDir]);
    expect(forgot.exitCode, forgot.stderr).toBe(0);
    expect(new Set((JSON.parse(forgot.stdout) as { deletedGroups: string[] }).deletedGroups)).toEqual(new Set(sent.map((message) => message.group)));
    expect(emulator.state.episodes()).toEqual([]);
  });

  it('takes at most the newest capture.backfillTurns (20) turns of a Claude Code transcript it never saw, then every new turn', async () => {
    await install();
    await perMessage();
    const transcript = path.join(root, 'claude.jsonl');
    const turns = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, index) => from + index).flatMap((turn) => [
        claudeLine('user', `u-${turn}`, `Old question number ${turn}?`, turn),
        claudeLine('assistant', `a-${turn}`, `Old answer number ${turn}.`, turn),
      ]);
    // Hooks installed into a session that already holds 50 turns.
    await fs.writeFile(transcript, turns(1, 50).join('\n') + '\n');
    const stop = await hook('Stop', claudeInput('Stop', { stop_hook_active: false }));
    expect(stop).toMatchObject({ exitCode: 0, stdout: '' });
    // 20 turns × (user + assistant) × (session + workspace group).
    await waitFor(() => messagesSent().length >= 80, '80 messages sent');
    await waitFor(async () => (await runs()).some((run) => run.event === 'drain' && run.outcome === 'delivered'), 'a delivering drain');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const sent = messagesSent();
    expect(sent).toHaveLength(80);
    const numbers = new Set(sent.map((message) => Number(/number (\d+)/.exec(message.content)?.[1])));
    expect([...numbers].sort((left, right) => left - right)).toEqual(Array.from({ length: 20 }, (_, index) => index + 31));
    expect((await runs()).find((run) => run.event === 'Stop')).toMatchObject({ outcome: 'queued', detail: '20 turns; 30 older turns left out (capture.backfillTurns 20)' });
    // The older turns count as taken; a new turn is taken by the next Stop, the bound no longer applies.
    await fs.appendFile(transcript, turns(51, 51).join('\n') + '\n');
    await hook('Stop', claudeInput('Stop', { stop_hook_active: false }));
    await waitFor(() => messagesSent().length >= 84, '84 messages sent');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(messagesSent()).toHaveLength(84);
    expect(messagesSent().filter((message) => message.content.includes('number 51'))).toHaveLength(4);
  });

  it("takes nothing of a Copilot turn read mid-loop (turn_end after a tool round), then the whole turn once the loop ends (graphiti-harness hook)", async () => {
    await install();
    await perMessage();
    const transcript = path.join(root, 'copilot.jsonl');
    const line = (type: string, id: string, data: Record<string, unknown>) => JSON.stringify({ type, data, id, timestamp: new Date().toISOString(), parentId: null }) + '\n';
    const stop = () => runNode(test, [harnessBinary, 'hook', '--event', 'Stop'], JSON.stringify(copilotInput('Stop', { stop_hook_active: false })));
    await fs.writeFile(
      transcript,
      line('session.start', 'e0', { sessionId: 'copilot-session-1', version: 1, producer: 'copilot-agent', startTime: new Date().toISOString() }) +
        line('user.message', 'u1', { content: 'Rename the outbox folder to queue.', attachments: [] }) +
        line('assistant.turn_start', 'e2', { turnId: '0.0' }) +
        line('assistant.message', 'e3', { messageId: 'm1', content: 'Looking for its imports first.', toolRequests: [{ toolCallId: 't1', name: 'grep_search', arguments: '{}', type: 'function' }] }) +
        line('tool.execution_start', 'e4', { toolCallId: 't1', toolName: 'grep_search', arguments: {} }) +
        line('tool.execution_complete', 'e5', { toolCallId: 't1', success: true, result: { content: 'src/outbox/index.ts' } }) +
        line('assistant.turn_end', 'e6', { turnId: '0.0' }),
    );
    expect(await stop()).toMatchObject({ exitCode: 0, stdout: '' });
    expect((await runs()).at(-1)).toMatchObject({ event: 'Stop', outcome: 'nothing-new' });
    await fs.appendFile(
      transcript,
      line('assistant.turn_start', 'e7', { turnId: '0.1' }) +
        line('assistant.message', 'e8', { messageId: 'm2', content: 'Renamed it to queue and updated the imports.', toolRequests: [] }) +
        line('assistant.turn_end', 'e9', { turnId: '0.1' }),
    );
    expect(await stop()).toMatchObject({ exitCode: 0, stdout: '' });
    await waitFor(() => messagesSent().length >= 4, '4 messages sent');
    expect(await stop()).toMatchObject({ exitCode: 0, stdout: '' });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // One turn × (user + assistant) × (session + workspace group), its final reply included.
    const sent = messagesSent();
    expect(sent).toHaveLength(4);
    expect(sent.filter((message) => message.content.includes('Rename the outbox folder to queue.'))).toHaveLength(2);
    expect(sent.filter((message) => message.content.includes('Renamed it to queue and updated the imports.'))).toHaveLength(2);
    expect((await runs()).filter((run) => run.event === 'Stop').map((run) => run.outcome)).toEqual(['nothing-new', 'queued', 'nothing-new']);
  });

  it("takes Copilot agent mode's transcript", async () => {
    await install();
    await perMessage();
    const transcript = path.join(root, 'copilot.jsonl');
    const line = (type: string, id: string, data: Record<string, unknown>) => JSON.stringify({ type, data, id, timestamp: new Date().toISOString(), parentId: null });
    await fs.writeFile(
      transcript,
      [
        line('session.start', 'e0', { sessionId: 'copilot-session-1', version: 1, producer: 'copilot-agent', startTime: new Date().toISOString() }),
        line('user.message', 'u1', { content: 'Rename the outbox folder to queue.', attachments: [] }),
        line('assistant.turn_start', 'e2', { turnId: '0.0' }),
        line('assistant.message', 'e3', { messageId: 'm1', content: 'Renamed it and updated the imports.', toolRequests: [] }),
        line('assistant.turn_end', 'e4', { turnId: '0.0' }),
      ].join('\n') + '\n',
    );
    const result = await hook('Stop', copilotInput('Stop', { stop_hook_active: false }));
    expect(result).toMatchObject({ exitCode: 0, stdout: '' });
    await waitFor(() => messagesSent().length >= 2, '2 messages sent');
    expect(messagesSent().map((message) => message.content).join('\n')).toContain('Rename the outbox folder to queue.');
  });

  it('sends an open digest when the session falls idle (capture.idleMinutes), with no SessionEnd: the drainer stays for it', { timeout: 300_000 }, async () => {
    await install();
    await configureCapture({ idleMinutes: 1 });
    const transcript = path.join(root, 'claude.jsonl');
    await fs.writeFile(transcript, [claudeLine('user', 'u-1', 'Why is the build slow?', 0), claudeLine('assistant', 'a-1', 'The type check runs twice.', 2)].join('\n') + '\n');
    expect(await hook('Stop', claudeInput('Stop', { stop_hook_active: false }))).toMatchObject({ exitCode: 0, stdout: '' });
    const stoppedAt = Date.now();
    await waitFor(() => messagesSent().length >= 2, 'the idle digest sent', 120_000);
    // Not before the idle time: the segment waited for more turns first.
    expect(Date.now() - stoppedAt).toBeGreaterThan(50_000);
    const sent = messagesSent();
    expect(sent).toHaveLength(2);
    for (const message of sent) expect(message.content).toContain('user: Why is the build slow?');
    await waitFor(async () => (await runs()).some((run) => run.event === 'drain' && run.outcome === 'delivered'), 'the drain that waited to end delivered');
  });
});

describe('graphiti-harness hook', () => {
  it('is the same code path as the bundled runner: recall printed, a Stop delivered by a drainer it starts', async () => {
    await install();
    await perMessage();
    await harness(['promote', 'We always use pnpm as the package manager in this repository.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
    await emulator.idle();
    const recall = await runNode(test, [harnessBinary, 'hook'], JSON.stringify(copilotInput('UserPromptSubmit', { prompt: 'Which package manager do we use here?' })));
    expect(recall.exitCode).toBe(0);
    expect(additionalContext(recall)).toContain('We always use pnpm');
    const transcript = path.join(root, 'claude.jsonl');
    await fs.writeFile(transcript, [claudeLine('user', 'u-9', 'Document the hook runner.', 0), claudeLine('assistant', 'a-9', 'Added a README section.', 1)].join('\n') + '\n');
    const stop = await runNode(test, [harnessBinary, 'hook', '--event', 'Stop'], JSON.stringify(claudeInput('Stop')));
    expect(stop).toMatchObject({ exitCode: 0, stdout: '' });
    await waitFor(() => messagesSent().some((message) => message.content.includes('Document the hook runner.')), 'the Stop turn sent');
    const garbage = await runNode(test, [harnessBinary, 'hook'], 'garbage');
    expect(garbage).toMatchObject({ exitCode: 0, stdout: '' });
  });
});

describe('hooks install, status, uninstall', () => {
  it('installs into a temporary HOME, shows the last runs, and uninstalls exactly our entries', async () => {
    const claudeSettings = path.join(home, '.claude', 'settings.json');
    await fs.mkdir(path.dirname(claudeSettings), { recursive: true });
    await fs.writeFile(claudeSettings, JSON.stringify({ model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } }));
    await install();
    await install();
    const settings = JSON.parse(await fs.readFile(claudeSettings, 'utf8')) as { model: string; hooks: Record<string, unknown[]> };
    expect(settings.model).toBe('opus');
    expect(settings.hooks['Stop']).toHaveLength(2);
    expect(settings.hooks['UserPromptSubmit']).toHaveLength(1);
    const command = JSON.stringify(settings.hooks['UserPromptSubmit']);
    expect(command).toContain(process.execPath);
    // The runner copied out of the checkout into the state folder, under its version and build.
    const version = (JSON.parse(await fs.readFile(path.join(packageFolder, 'package.json'), 'utf8')) as { version: string }).version;
    const copy = path.join(stateDir, 'runner', `${version}+${runnerBuild(hookRunnerFile())}`, 'hook-runner.cjs');
    expect(command).toContain(copy);
    expect(await fs.readFile(claudeSettings, 'utf8')).not.toContain('apiKey');
    await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'hello there' }));
    const status = await harness(['hooks', 'status', '--json']);
    const parsed = JSON.parse(status.stdout) as { installed: Array<{ target: string; entries: unknown[]; runner: unknown }>; runs: Array<{ event: string; outcome: string; ms: number; time: string }> };
    expect(parsed.installed.map((entry) => [entry.target, entry.entries.length, entry.runner])).toEqual([
      ['claude', 4, { path: copy, version, present: true }],
      ['copilot', 4, { path: copy, version, present: true }],
      // `--target all`: every registered assistant.
      ['codex', 4, { path: copy, version, present: true }],
      ['gemini', 4, { path: copy, version, present: true }],
      ['copilot-cli', 4, { path: copy, version, present: true }],
    ]);
    expect(parsed.runs.at(-1)).toMatchObject({ event: 'UserPromptSubmit' });
    expect(typeof parsed.runs.at(-1)?.ms).toBe('number');
    const removed = await harness(['hooks', 'uninstall']);
    expect(removed.exitCode).toBe(0);
    expect(JSON.parse(await fs.readFile(claudeSettings, 'utf8'))).toEqual({ model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } });
    expect(existsSync(path.join(home, '.copilot', 'hooks', 'graphiti-memory.json'))).toBe(false);
    expect(existsSync(path.dirname(copy))).toBe(false);
    // Consent went with the last entries: a leftover hook sends nothing.
    const after = await hook('UserPromptSubmit', claudeInput('UserPromptSubmit', { prompt: 'hello there' }));
    expect(after.stdout).toBe('');
    expect((await runs()).at(-1)?.outcome).toBe('no-consent');
    // Five harness runs and two hooks: on a loaded 2-core machine well past the default 20 s.
  }, 90_000);
});
