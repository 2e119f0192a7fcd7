// Open loops end to end, with real processes: the BUILT hook runner and CLI against the emulator
// over HTTP (not Graphiti). A Claude Code turn with a `TODO:` and a `next:` line is captured by
// Stop; the next session's brief names both with their age and source; a later turn saying one is
// done leaves only the other; `loops drop` takes the last; `forget --scope workspace` takes loops
// with it. Each change reaches Graphiti as a `task_update` episode.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readConfigFile, updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { claudeTranscriptLine, hookTestTools, messagesSent, printedContext, type ProcessRun } from './hook-processes.js';
import { endHookTest, ensureBuilt, startHookTest, type HookTest } from './hook-server-fixture.js';

let test: HookTest;
let tools: ReturnType<typeof hookTestTools>;
const harness = (...args: string[]): Promise<ProcessRun> => tools.harness(...args);
const hook = (event: string, session: string, fields: Record<string, unknown> = {}): Promise<ProcessRun> => tools.hook(event, session, fields);

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('loops-');
  tools = hookTestTools(test);
  await harness('hooks', 'install', '--target', 'claude');
  const file = userConfigPath(test.env);
  const current = await readConfigFile(file);
  await updateConfigFile(file, { recall: { ...(current.ok ? current.values.recall : {}), timeoutMs: 5_000 } });
});

afterEach(() => endHookTest(test));

/** A Claude Code session of one finished turn, then its Stop hook. */
async function finishedTurn(session: string, prompt: string, reply: string): Promise<void> {
  const line = (type: 'user' | 'assistant', uuid: string, text: string): string => claudeTranscriptLine(type, uuid, text, { cwd: test.workspace, sessionId: session });
  await fs.writeFile(path.join(test.root, `${session}.jsonl`), `${line('user', `${session}-u`, prompt)}\n${line('assistant', `${session}-a`, reply)}\n`);
  const stop = await hook('Stop', session);
  expect(stop.exitCode, stop.stderr).toBe(0);
}

/** The brief a new Claude Code session gets. */
async function brief(session: string): Promise<string> {
  return printedContext(await hook('SessionStart', session, { source: 'startup' }));
}

const openLoopLines = (text: string): string[] => text.split('\n').filter((line) => line.startsWith('- Open loop:'));

async function listed(): Promise<Array<{ id: string; text: string; status: string }>> {
  return (JSON.parse((await harness('loops', 'list', '--json')).stdout) as { loops: Array<{ id: string; text: string; status: string }> }).loops;
}

describe('open loops', { timeout: 180_000 }, () => {
  it('names a TODO: and a next: line in the next brief with their source, closes one on "done:", and drops the other by hand', async () => {
    await finishedTurn(
      'session-1',
      'Please make the retry budget configurable.',
      'The retry budget is configurable now.\n\nTODO: add a migration test for the retry budget\nNext: check why the staging deploy is slow',
    );
    const first = openLoopLines(await brief('session-2'));
    expect(first).toHaveLength(2);
    expect(first.join('\n')).toContain('add a migration test for the retry budget');
    expect(first.join('\n')).toContain('check why the staging deploy is slow');
    for (const line of first) expect(line).toMatch(/\(open for [^,]+, Claude Code\)$/);

    await finishedTurn('session-3', 'Write that migration test.', 'Added it.\n\ndone: added the migration test for the retry budget');
    const second = openLoopLines(await brief('session-4'));
    expect(second).toEqual([expect.stringContaining('check why the staging deploy is slow')]);

    const [left] = await listed();
    expect(left).toMatchObject({ text: 'check why the staging deploy is slow', status: 'open' });
    const drop = await harness('loops', 'drop', left?.id.slice(0, 6) ?? '', '--json');
    expect(JSON.parse(drop.stdout)).toMatchObject({ ok: true, status: 'dropped', taskUpdate: 'stored' });
    expect(await listed()).toEqual([]);
    expect(openLoopLines(await brief('session-5'))).toEqual([]);

    // Each change went to the workspace group as a task_update episode: opened, done, dropped.
    const updates = messagesSent(test.emulator).filter((message) => message.content.includes('kind="task_update"'));
    expect(updates.map((message) => message.content.match(/(Open loop|Loop done|Loop dropped) \(([^)]+)\): ([^\n<]+)/)?.slice(1))).toEqual(
      expect.arrayContaining([
        ['Open loop', 'Claude Code', 'add a migration test for the retry budget'],
        ['Open loop', 'Claude Code', 'check why the staging deploy is slow'],
        ['Loop done', 'Claude Code', 'add a migration test for the retry budget'],
        ['Loop dropped', 'graphiti-harness', 'check why the staging deploy is slow'],
      ]),
    );
  });

  it('a resumed session is not told the same loops again', async () => {
    await finishedTurn('session-1', 'Go on.', 'follow-up: ask Ada about the cache headers');
    expect(openLoopLines(await brief('session-2'))).toHaveLength(1);
    expect(openLoopLines(printedContext(await hook('SessionStart', 'session-2', { source: 'resume' })))).toEqual([]);
  });

  it('forget --scope workspace takes the loops with it', async () => {
    await finishedTurn('session-1', 'Go on.', 'TODO: rename the flag');
    expect(await listed()).toHaveLength(1);
    const forget = await harness('forget', '--scope', 'workspace', '--yes', '--json');
    expect(JSON.parse(forget.stdout)).toMatchObject({ droppedLoops: 1 });
    expect(await listed()).toEqual([]);
    expect(openLoopLines(await brief('session-2'))).toEqual([]);
  });
});
