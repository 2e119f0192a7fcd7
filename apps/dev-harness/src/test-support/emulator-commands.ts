// Tests of the commands in-process against a real emulator over loopback HTTP, with a fresh
// state folder and workspace per test: one setup for every such test file.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { runHarness } from '../cli/program.js';
import { capturedTerminal } from './captured-terminal.js';

export interface EmulatorCommandsFixture {
  readonly emulator: RunningEmulator;
  /** Holds `workspace/` (the current folder of every run) and `state/` (its --state-dir). */
  readonly folder: string;
}

export interface CommandRun {
  readonly exitCode: number;
  readonly out: string;
  readonly err: string;
  json(): Record<string, unknown>;
}

export async function openEmulatorCommands(prefix: string, options: EmulatorOptions = {}): Promise<EmulatorCommandsFixture> {
  const emulator = await startEmulator({ processingDelayMs: 1, ...options });
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  await fs.mkdir(path.join(folder, 'workspace'));
  return { emulator, folder };
}

export async function closeEmulatorCommands(fixture: EmulatorCommandsFixture): Promise<void> {
  await fixture.emulator.close();
  await fs.rm(fixture.folder, { recursive: true, force: true });
}

/** Runs `graphiti-harness ARGS --state-dir <folder>/state` in `<folder>/workspace`. */
export async function runCommand(folder: string, args: readonly string[]): Promise<CommandRun> {
  const terminal = capturedTerminal({ cwd: path.join(folder, 'workspace') });
  const exitCode = await runHarness([...args, '--state-dir', path.join(folder, 'state')], { terminal });
  return { exitCode, out: terminal.out(), err: terminal.err(), json: () => JSON.parse(terminal.out()) as Record<string, unknown> };
}
