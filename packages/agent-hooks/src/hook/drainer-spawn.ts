// Starting the background drainer (hook-drainer.ts) detached from the hook's process. Kept apart
// from the drainer itself, so every core (the lean prompt core too) can start one without
// bundling what the drainer runs.
import os from 'node:os';
import type { HookContext } from './hook-context.js';

export interface DrainerLaunch {
  readonly nodePath: string;
  readonly scriptPath: string;
  /** Arguments before the drainer's own (`['hook']` for the harness binary). */
  readonly leadingArguments: readonly string[];
}

/** Starts the drainer detached from this process (and its stdio), so the hook can exit at once. */
export function spawnDrainer(launch: DrainerLaunch, context: Pick<HookContext, 'endpoint' | 'stateDirectory' | 'workspaceFolder'>, env: NodeJS.ProcessEnv): void {
  // Loaded only when a drainer is started: a prompt that starts none must not load child_process.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(
    launch.nodePath,
    [
      launch.scriptPath,
      ...launch.leadingArguments,
      '--drain',
      '--endpoint',
      context.endpoint,
      '--state-dir',
      context.stateDirectory,
      '--workspace',
      context.workspaceFolder,
    ],
    // cwd: a folder that surely exists (the state folder may not yet).
    { detached: true, stdio: 'ignore', env, windowsHide: true, cwd: os.tmpdir() },
  );
  child.on('error', () => {});
  child.unref();
}
