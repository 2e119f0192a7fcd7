// `promote` never reports a success that is not: without an endpoint it stops with the next step,
// and a write Graphiti refused is reported as refused, with the status.
import { afterEach, describe, expect, it } from 'vitest';
import { capturedTerminal } from '../test-support/captured-terminal.js';
import { runHarness } from '../cli/program.js';
import { closeEmulatorCommands, openEmulatorCommands, runCommand, type EmulatorCommandsFixture } from '../test-support/emulator-commands.js';

let fixture: EmulatorCommandsFixture | undefined;

afterEach(async () => {
  if (fixture !== undefined) await closeEmulatorCommands(fixture);
  fixture = undefined;
});

describe('promote', () => {
  it('without a configured or given endpoint fails (exit 1) with the next step, and starts no emulator', async () => {
    const terminal = capturedTerminal({ env: { GRAPHITI_MEMORY_ENDPOINT: undefined } });
    const exitCode = await runHarness(['promote', 'We use pnpm.', '--kind', 'decision', '--scope', 'workspace'], { terminal });
    expect(exitCode).toBe(1);
    expect(terminal.err()).toContain('no Graphiti endpoint');
    expect(terminal.err()).toContain('graphiti-harness setup');
    expect(terminal.err()).toContain('--endpoint URL');
    expect(terminal.err()).not.toContain('EMULATOR');
    expect(terminal.out()).not.toContain('remembered');
  });

  for (const status of [500, 422]) {
    it(`a write Graphiti refused with ${status} is reported as refused, with the status (exit 1)`, async () => {
      fixture = await openEmulatorCommands('harness-promote-refused-', { faults: { messages: { errorRate: 1, errorStatus: status } } });
      const run = await runCommand(fixture.folder, ['promote', 'We use pnpm.', '--kind', 'decision', '--scope', 'workspace', '--wait', '3', '--endpoint', fixture.emulator.url]);
      expect(run.exitCode, run.err).toBe(1);
      expect(run.err).toMatch(new RegExp(`refused.*${status}|${status}.*refused`));
      expect(run.err).not.toContain('sent, but not confirmed');
      expect(run.out).not.toContain('remembered');
      const json = await runCommand(fixture.folder, ['promote', 'We use turbo.', '--kind', 'decision', '--scope', 'workspace', '--wait', '3', '--json', '--endpoint', fixture.emulator.url]);
      expect(json.exitCode).toBe(1);
      expect(json.json()).toMatchObject({ ok: false, refused: { status } });
    }, 60_000);
  }
});
