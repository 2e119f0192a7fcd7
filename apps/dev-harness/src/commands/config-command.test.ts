// `graphiti-harness config show`: every effective value with its origin, the files read, problems.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHarness } from '../cli/program.js';
import { capturedTerminal } from '../test-support/captured-terminal.js';
import { CHAT_MODEL_DIGEST_NOTICE, CHAT_MODEL_LOOPS_NOTICE } from './config-command.js';

let root: string;
let workspace: string;
let userFile: string;
let projectFile: string;
let env: Record<string, string>;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-config-show-'));
  workspace = path.join(root, 'repo');
  await fs.mkdir(path.join(workspace, 'sub'), { recursive: true });
  // The repository's root: project files are looked up from the workspace up to here.
  await fs.mkdir(path.join(workspace, '.git'));
  env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config') };
  userFile = path.join(root, 'config', 'config.json');
  projectFile = path.join(workspace, '.graphiti-memory.json');
  await fs.mkdir(path.dirname(userFile), { recursive: true });
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function configShow(args: readonly string[] = [], extraEnv: Record<string, string> = {}) {
  const terminal = capturedTerminal({ cwd: path.join(workspace, 'sub'), env: { ...env, ...extraEnv } });
  const exitCode = await runHarness(['config', 'show', ...args], { terminal });
  return { exitCode, out: terminal.out(), err: terminal.err() };
}

interface Shown {
  readonly ok: boolean;
  readonly files: { readonly user: { path: string; exists: boolean }; readonly project: { path: string | null; exists: boolean } };
  readonly values: readonly { key: string; value: unknown; origin: string; source: string }[];
  readonly problems: readonly string[];
}

describe('config show', () => {
  it('lists every value with where it came from: flag, variable, project file, user file, default', async () => {
    await fs.writeFile(userFile, JSON.stringify({ endpoint: 'http://user.example:8000', groupIdStrategy: 'raw', recall: { timeoutMs: 400 } }));
    await fs.writeFile(projectFile, JSON.stringify({ recall: { maxFacts: 5 }, scopes: 'workspace' }));
    const result = await configShow(['--json', '--timeout-ms', '2500'], { GRAPHITI_MEMORY_SERVER: 'mcp' });
    expect(result.exitCode, result.err).toBe(0);
    const shown = JSON.parse(result.out) as Shown;
    expect(shown.files).toEqual({ user: { path: userFile, exists: true }, project: { path: projectFile, exists: true } });
    const byKey = Object.fromEntries(shown.values.map((entry) => [entry.key, entry]));
    expect(byKey['endpoint']).toEqual({ key: 'endpoint', value: 'http://user.example:8000', origin: 'user', source: userFile });
    expect(byKey['groupIdStrategy']).toMatchObject({ value: 'raw', origin: 'user' });
    expect(byKey['recall.maxFacts']).toEqual({ key: 'recall.maxFacts', value: 5, origin: 'project', source: projectFile });
    expect(byKey['scopes']).toMatchObject({ value: 'workspace', origin: 'project' });
    expect(byKey['server']).toEqual({ key: 'server', value: 'mcp', origin: 'env', source: 'GRAPHITI_MEMORY_SERVER' });
    expect(byKey['timeoutMs']).toEqual({ key: 'timeoutMs', value: 2500, origin: 'flag', source: 'command line' });
    expect(byKey['includeGitMetadata']).toEqual({ key: 'includeGitMetadata', value: false, origin: 'default', source: 'default' });
    expect(Object.keys(byKey)).toEqual(expect.arrayContaining(['recall.enabled', 'recall.scopes', 'capture.backfillTurns', 'autoPromote.enabled', 'filter', 'brief.budget', 'stateDir']));
  });

  it('prints one line per value for people, with the file it came from', async () => {
    await fs.writeFile(projectFile, JSON.stringify({ recall: { maxFacts: 5 } }));
    const result = await configShow();
    expect(result.exitCode, result.err).toBe(0);
    expect(result.out).toContain(`project file: ${projectFile}`);
    expect(result.out).toContain(`user file:    ${userFile} (not found)`);
    expect(result.out).toMatch(new RegExp(`recall\\.maxFacts\\s+= 5 {2}\\(project: ${projectFile.replace(/[.\\/]/g, '\\$&')}\\)`));
    expect(result.out).toMatch(/includeGitMetadata\s+= false {2}\(default\)/);
  });

  it('says what a directive does by default: held for review, never sent without approval (autoPromote unset)', async () => {
    const result = await configShow();
    expect(result.out).toMatch(/autoPromote\.enabled\s+= false {2}\(default\)/);
    expect(result.out).toContain('directives:   directives in your messages (`decision: …`) are held for your review in pending memories, never sent without your approval (autoPromote.enabled false, autoPromote.review true)');
    const json = JSON.parse((await configShow(['--json'])).out) as { directives: string };
    expect(json.directives).toBe('held-for-review');
    await fs.writeFile(userFile, JSON.stringify({ autoPromote: { enabled: true, review: false } }));
    expect((await configShow()).out).toContain('are promoted at once, without review');
  });

  it('says that only VS Code writes digests with a chat model when capture.digestWriter is chatModel', async () => {
    const before = await configShow();
    expect(before.out).toMatch(/capture\.digestWriter\s+= "filtered" {2}\(default\)/);
    expect(before.out).not.toContain(CHAT_MODEL_DIGEST_NOTICE);
    await fs.writeFile(userFile, JSON.stringify({ capture: { digestWriter: 'chatModel' } }));
    const result = await configShow();
    expect(result.exitCode, result.err).toBe(0);
    expect(result.out).toMatch(/capture\.digestWriter\s+= "chatModel" {2}\(user: /);
    expect(result.out).toContain(CHAT_MODEL_DIGEST_NOTICE);
  });

  it('shows loops.proposeWithModel (off by default) and says that only VS Code proposes loops when it is on', async () => {
    const before = await configShow();
    expect(before.out).toMatch(/loops\.proposeWithModel\s+= false {2}\(default\)/);
    expect(before.out).not.toContain(CHAT_MODEL_LOOPS_NOTICE);
    await fs.writeFile(userFile, JSON.stringify({ loops: { proposeWithModel: true } }));
    const result = await configShow();
    expect(result.exitCode, result.err).toBe(0);
    expect(result.out).toMatch(/loops\.proposeWithModel\s+= true {2}\(user: /);
    expect(result.out).toContain(CHAT_MODEL_LOOPS_NOTICE);
  });

  it('shows the problems of a broken file (exit 1) instead of refusing to start', async () => {
    await fs.writeFile(userFile, JSON.stringify({ endpiont: 'http://localhost:8000' }));
    const result = await configShow(['--json']);
    expect(result.exitCode).toBe(1);
    const shown = JSON.parse(result.out) as Shown;
    expect(shown.ok).toBe(false);
    expect(shown.problems).toEqual([`${userFile}: unknown key \`endpiont\`; did you mean \`endpoint\`?`]);
    const human = await configShow();
    expect(human.out).toContain('did you mean `endpoint`?');
  });
});
