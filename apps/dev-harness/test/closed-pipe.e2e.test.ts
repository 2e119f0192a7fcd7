// A reader that goes away (`graphiti-harness hooks status | head -1`) ends the output quietly: the
// built binary, as a real child process whose stdout pipe is closed before it writes.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureHarnessBuilt, harnessBinary } from './hook-server-fixture.js';

let home: string;

beforeAll(async () => {
  await ensureHarnessBuilt();
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-closed-pipe-'));
}, 120_000);

afterAll(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

/** Runs the harness with its stdout read for `keepLines` lines, then closed (as `head` does). */
function runIntoClosedPipe(args: readonly string[], keepLines: number): Promise<{ exitCode: number | null; signal: NodeJS.Signals | null; stderr: string; kept: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, HOME: home, NO_COLOR: '1', GRAPHITI_API_KEY: '', GRAPHITI_MEMORY_CONFIG_DIR: path.join(home, 'config'), GRAPHITI_MEMORY_STATE_DIR: path.join(home, 'state') };
    const child = spawn(process.execPath, [harnessBinary, ...args], { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let kept = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    if (keepLines === 0) child.stdout.destroy();
    else {
      child.stdout.on('data', (chunk: Buffer) => {
        kept += chunk.toString();
        if (kept.split('\n').length > keepLines) child.stdout.destroy();
      });
    }
    child.on('error', reject);
    child.on('close', (exitCode, signal) => resolve({ exitCode, signal, stderr, kept }));
  });
}

describe('output into a closed pipe', () => {
  for (const args of [['hooks', 'status'], ['config', 'show'], ['--help']]) {
    it(`${args.join(' ')} into a closed pipe exits 0 with no EPIPE stack`, async () => {
      const run = await runIntoClosedPipe(args, 0);
      expect(run.stderr).not.toMatch(/EPIPE|Error:|at .*\.js:\d+/);
      expect(run.exitCode, run.stderr).toBe(0);
    }, 60_000);
  }

  it('hooks status | head -1: the first line arrives, the rest ends quietly', async () => {
    const run = await runIntoClosedPipe(['hooks', 'status'], 1);
    expect(run.kept).toMatch(/^claude: /);
    expect(run.stderr).not.toMatch(/EPIPE|Error:/);
    expect(run.exitCode, run.stderr).toBe(0);
  }, 60_000);
});
