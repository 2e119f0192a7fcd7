// Cited facts and the stale check in the hooks' additionalContext, through the BUILT hook runner
// against the emulator: a fact the harness delivered ends with its citation, and one naming a
// workspace file that is gone is marked; the same fact naming a file that exists is not.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hookTestTools, printedContext, type ProcessRun } from './hook-processes.js';
import { endHookTest, ensureBuilt, startHookTest, type HookTest } from './hook-server-fixture.js';

let test: HookTest;
let tools: ReturnType<typeof hookTestTools>;
const harness = (...args: string[]): Promise<ProcessRun> => tools.harness(...args);

beforeAll(() => ensureBuilt(), 300_000);

beforeEach(async () => {
  test = await startHookTest('cited-context-');
  tools = hookTestTools(test);
  await harness('hooks', 'install', '--target', 'claude');
});

afterEach(() => endHookTest(test));

describe('the hooks cite recalled facts', () => {
  it('ends each fact line with its source and marks a fact naming a file that is gone', async () => {
    await fs.mkdir(path.join(test.workspace, 'src'), { recursive: true });
    await fs.writeFile(path.join(test.workspace, 'src', 'lexer.ts'), 'export {};\n');
    expect((await harness('promote', 'The parser lives in src/legacy.ts now.', '--kind', 'decision', '--scope', 'workspace')).exitCode).toBe(0);
    expect((await harness('promote', 'The lexer lives in src/lexer.ts now.', '--kind', 'decision', '--scope', 'workspace')).exitCode).toBe(0);
    await test.emulator.idle();
    const today = new Date().toISOString().slice(0, 10);

    const context = printedContext(await tools.hook('UserPromptSubmit', 'session-1', { prompt: 'Where do the parser and the lexer live?' }));
    const parser = context.split('\n').find((line) => line.includes('src/legacy.ts now'));
    const lexer = context.split('\n').find((line) => line.includes('src/lexer.ts now'));
    expect(parser).toMatch(new RegExp(String.raw`\(may be stale: src/legacy\.ts is gone\) \(graphiti-harness, ${today}\)$`));
    expect(lexer).toMatch(new RegExp(String.raw`src/lexer\.ts now\.? \([^)]*\) \(graphiti-harness, ${today}\)$`));
  });
});
