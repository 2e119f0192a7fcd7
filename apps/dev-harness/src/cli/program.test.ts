import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

  it('--endpoint\'s help says the default really in force: the configured endpoint, the emulator only for demo', async () => {
    const configFolder = await fs.mkdtemp(path.join(os.tmpdir(), 'harness-help-config-'));
    try {
      await fs.writeFile(path.join(configFolder, 'config.json'), JSON.stringify({ endpoint: 'http://127.0.0.1:8123' }));
      const help = async (args: string[]) => {
        const terminal = capturedTerminal({ cwd: configFolder, env: { GRAPHITI_MEMORY_CONFIG_DIR: configFolder } });
        expect(await runHarness(args, { terminal })).toBe(0);
        return terminal.out().replace(/\s+/g, ' ');
      };
      expect(await help(['recall', '--help'])).toContain('default: the configured endpoint (now http://127.0.0.1:8123, from the user config)');
      expect(await help(['recall', '--help'])).not.toContain('EMULATOR');
      expect(await help(['demo', '--help'])).toContain('default: an in-process EMULATOR, not Graphiti; the configured endpoint is not used');
      await fs.rm(path.join(configFolder, 'config.json'));
      expect(await help(['promote', '--help'])).toContain('(none configured); with none the command stops: run graphiti-harness setup');
    } finally {
      await fs.rm(configFolder, { recursive: true, force: true });
    }
  });
});
