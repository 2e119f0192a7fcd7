// The background drainer: started detached by Stop / SessionEnd (and by a SessionStart whose tier
// is stale), it delivers and confirms what hooks put into the durable outbox, then refreshes the
// workspace's local tier. One per state folder: a second one finds the lock held and leaves at
// once (the running one adopts the newer journals); the outbox's own drain lock still guards sends.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import type { HookContext } from './hook-context.js';
import { adoptHookJournals, openHookMemory, type HookMemory } from './hook-memory.js';
import { refreshTier } from './local-tier.js';
import { LocalTierStore } from './local-tier-store.js';
import { NullLogger } from './null-logger.js';

export interface DrainerLaunch {
  readonly nodePath: string;
  readonly scriptPath: string;
  /** Arguments before the drainer's own (`['hook']` for the harness binary). */
  readonly leadingArguments: readonly string[];
}

/** How long one drainer keeps waiting for confirmation before it leaves the rest to the next. */
const DRAIN_BOUND_MS = 180_000;
const REQUEST_TIMEOUT_MS = 30_000;
const LOCK_STALE_MS = 30_000;
const ROUNDS = 3;

/** Starts the drainer detached from this process (and its stdio), so the hook can exit at once. */
export function spawnDrainer(launch: DrainerLaunch, context: HookContext, env: NodeJS.ProcessEnv): void {
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

/** Runs the drain; returns its outcome. Never throws. */
export async function runDrainer(context: HookContext): Promise<{ outcome: string; detail?: string }> {
  const lockTarget = path.join(context.stateDirectory, 'hooks', 'drainer');
  await fs.mkdir(lockTarget, { recursive: true });
  let release: (() => Promise<void>) | undefined;
  try {
    release = await lockfile.lock(lockTarget, { stale: LOCK_STALE_MS, update: LOCK_STALE_MS / 3, retries: 0, realpath: false });
  } catch {
    return { outcome: 'drainer-running' };
  }
  let memory: HookMemory | undefined;
  try {
    memory = await openHookMemory({ ...context, requestTimeoutMs: REQUEST_TIMEOUT_MS, durable: true, logger: new NullLogger() });
    let confirmed = 0;
    let pending = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await adoptHookJournals(memory);
      memory.ingestion?.start();
      const result = await memory.ingestion?.waitForConfirmation({ timeoutMs: DRAIN_BOUND_MS / ROUNDS });
      confirmed += result?.confirmed ?? 0;
      pending = result?.pending ?? 0;
      if (pending === 0 && (await memory.outbox?.otherJournalCount()) === 0) break;
    }
    await refreshWorkspaceTier(context, memory);
    return { outcome: pending === 0 ? 'delivered' : 'pending', detail: `${confirmed} confirmed, ${pending} pending` };
  } finally {
    await memory?.close().catch(() => undefined);
    await release().catch(() => undefined);
  }
}

async function refreshWorkspaceTier(context: HookContext, memory: HookMemory): Promise<void> {
  const groups = await memory.groups.resolveMany(['workspace', 'user']);
  const workspace = groups.find((group) => group.scope === 'workspace')?.groupId;
  const user = groups.find((group) => group.scope === 'user')?.groupId;
  if (workspace === undefined) return;
  try {
    const refresh = await refreshTier(memory.api, { workspace, ...(user === undefined ? {} : { user }) }, () => new Date(), AbortSignal.timeout(REQUEST_TIMEOUT_MS));
    await new LocalTierStore(context.stateDirectory).saveRefresh(context.endpoint, workspace, refresh);
  } catch {
    // The tier stays as it was; the next drain or recall refreshes it.
  }
}
