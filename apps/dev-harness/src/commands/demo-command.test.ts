import { describe, expect, it } from 'vitest';
import { runHarness } from '../cli/program.js';
import { capturedTerminal } from '../test-support/captured-terminal.js';

describe('demo', () => {
  it('passes every check against the in-process emulator', async () => {
    const terminal = capturedTerminal();
    const exitCode = await runHarness(['demo', '--json'], { terminal });
    const result = JSON.parse(terminal.out()) as { ok: boolean; checks: Array<{ name: string; ok: boolean | null }>; prompt: string; confirmed: number; enqueued: number };
    expect(terminal.err()).toContain('EMULATOR');
    expect(result.checks.filter((check) => check.ok !== true)).toEqual([]);
    expect(result.ok).toBe(true);
    expect(exitCode).toBe(0);
    expect(result.confirmed).toBe(result.enqueued);
    expect(result.prompt).toContain('<graphiti_memory');
    expect(result.prompt).toMatch(/switched to pnpm/);
  }, 60_000);
});
