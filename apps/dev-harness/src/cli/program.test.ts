import { describe, expect, it } from 'vitest';
import { capturedTerminal } from '../test-support/captured-terminal.js';
import { runHarness } from './program.js';

describe('graphiti-harness program', () => {
  it('a mistyped command is an unknown command with a suggestion, exit 2 (not an argument of the demo)', async () => {
    const terminal = capturedTerminal();
    const exitCode = await runHarness(['recal', 'which package manager'], { terminal });
    expect(exitCode).toBe(2);
    expect(terminal.err()).toContain("error: unknown command 'recal'");
    expect(terminal.err()).toContain('(Did you mean recall?)');
    expect(terminal.err()).not.toContain('too many arguments');
    expect(terminal.out()).toBe('');
  });

  it('bare graphiti-harness prints the help on stdout and runs nothing (exit 0)', async () => {
    const terminal = capturedTerminal();
    const exitCode = await runHarness([], { terminal });
    expect(exitCode).toBe(0);
    expect(terminal.out()).toContain('Usage: graphiti-harness');
    expect(terminal.out()).toMatch(/\n\s+demo\b/);
    expect(terminal.err()).not.toContain('EMULATOR');
  });

  it('every command states the exit codes in its help', async () => {
    for (const args of [['--help'], ['recall', '--help'], ['hooks', 'install', '--help']]) {
      const terminal = capturedTerminal();
      expect(await runHarness(args, { terminal })).toBe(0);
      expect(terminal.out()).toContain('Exit codes (every command):');
      expect(terminal.out()).toMatch(/2 {2}usage/);
    }
  });
});
