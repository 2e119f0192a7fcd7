// What the harness benchmarks that drive graphiti-harness itself share: a throwaway home with a
// workspace folder, an emulator over HTTP, and memories promoted with `graphiti-harness promote`
// (in process). Everything goes when the measurement ends, whatever it came to.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import type { Terminal } from '../terminal/terminal.js';
import { capturedTerminalFor } from './bench-terminal.js';

export interface BenchWorkspace {
  /** The throwaway folder: HOME, config and state folders live in it. */
  readonly root: string;
  /** The workspace folder the commands run in (`<root>/workspace`). */
  readonly workspace: string;
  readonly emulator: RunningEmulator;
  /** The environment of every command: this HOME and config folder only. */
  readonly env: NodeJS.ProcessEnv;
  /** Runs graphiti-harness in process in the workspace (quiet unless given a terminal); its exit code. */
  harness(args: readonly string[], terminal?: Terminal): Promise<number>;
}

/** A memory to promote: its kind and text. */
export type BenchMemory = readonly [kind: string, text: string];

/** Runs `measure` in a fresh bench workspace (`prefix`: its temp folder's name); `env` adds variables. */
export async function withBenchWorkspace<T>(prefix: string, measure: (bench: BenchWorkspace) => Promise<T>, env: NodeJS.ProcessEnv = {}): Promise<T> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const emulator = await startEmulator({ processingDelayMs: 1 });
  try {
    const workspace = path.join(root, 'workspace');
    await fs.mkdir(workspace, { recursive: true });
    const benchEnv: NodeJS.ProcessEnv = { PATH: process.env['PATH'], HOME: root, GRAPHITI_MEMORY_CONFIG_DIR: path.join(root, 'config'), ...env };
    const { runHarness } = await import('../cli/program.js');
    const harness = (args: readonly string[], terminal?: Terminal) => runHarness([...args], { terminal: terminal ?? capturedTerminalFor(workspace, benchEnv) });
    return await measure({ root, workspace, emulator, env: benchEnv, harness });
  } finally {
    await emulator.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

/**
 * Promotes each memory to the workspace scope (`options`: where to, e.g. `--state-dir`) and waits
 * until the emulator has processed them. A promote that fails ends the benchmark: its figure
 * would measure recall of memories that are not there.
 */
export async function promoteMemories(bench: BenchWorkspace, memories: readonly BenchMemory[], options: readonly string[]): Promise<void> {
  for (const [kind, text] of memories) {
    const exitCode = await bench.harness(['promote', text, '--kind', kind, '--scope', 'workspace', ...options]);
    if (exitCode !== 0) throw new Error(`bench: graphiti-harness promote --kind ${kind} exited ${exitCode}; run it by hand with the same options to see why`);
  }
  await bench.emulator.idle();
}
