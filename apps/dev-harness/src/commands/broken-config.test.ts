// A broken or unknown configuration never blocks forget, pending, audit or outbox: they run with
// the file's valid values and the defaults, and say on stderr what was ignored. Other commands still
// fail loudly on the user's own file; a repository's file never fails a command.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runHarness } from '../cli/program.js';
import { capturedTerminal } from '../test-support/captured-terminal.js';

let root: string;
let workspace: string;
let userFile: string;
let env: Record<string, string>;
let emulator: RunningEmulator;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-broken-config-'));
  workspace = path.join(root, 'repo');
  await fs.mkdir(path.join(workspace, '.git'), { recursive: true });
  env = { GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), HOME: root };
  userFile = path.join(root, 'config', 'config.json');
  await fs.mkdir(path.dirname(userFile), { recursive: true });
  emulator = await startEmulator({});
  await fs.writeFile(userFile, JSON.stringify({ endpoint: emulator.url, stateDir: path.join(root, 'state'), userKey: 'user-key-12345678', endpiont: 'http://typo:8000' }));
});

afterEach(async () => {
  await emulator.close();
  await fs.rm(root, { recursive: true, force: true });
});

async function harness(args: readonly string[]) {
  const terminal = capturedTerminal({ cwd: workspace, env });
  const exitCode = await runHarness(args, { terminal });
  return { exitCode, out: terminal.out(), err: terminal.err() };
}

describe('an unknown key in config.json', () => {
  it.each([
    [['forget', '--all', '--yes']],
    [['pending', 'list']],
    [['audit']],
    [['outbox', 'list']],
  ])('does not block `%s`: it runs with the rest of the file and says what it ignored', async (args) => {
    const result = await harness([...args, '--json']);
    expect(result.exitCode, result.err).toBe(0);
    expect(result.err).toContain(`${userFile}: ignored endpiont (unknown key \`endpiont\`; did you mean \`endpoint\`?)`);
    expect((JSON.parse(result.out) as { ok: boolean }).ok).toBe(true);
  });

  it('still fails loudly in a command that would act on the configuration (recall), naming the file, the key and the nearest key', async () => {
    const result = await harness(['recall', 'which port?']);
    expect(result.exitCode).toBe(2);
    expect(result.err).toContain(`${userFile}: unknown key \`endpiont\`; did you mean \`endpoint\`?`);
  });
});

describe("an unknown key in a repository's .graphiti-memory.json", () => {
  it('is ignored and named; harness commands still work there', async () => {
    await fs.writeFile(userFile, JSON.stringify({ endpoint: emulator.url, stateDir: path.join(root, 'state'), userKey: 'user-key-12345678' }));
    await fs.writeFile(path.join(workspace, '.graphiti-memory.json'), JSON.stringify({ recal: { enabled: false } }));
    const result = await harness(['pending', 'list']);
    expect(result.exitCode, result.err).toBe(0);
    expect(result.err).toContain('.graphiti-memory.json: ignored recal (unknown key `recal`; did you mean `recall`?)');
    const health = await harness(['health']);
    expect(health.exitCode, health.err).toBe(0);
  });
});
