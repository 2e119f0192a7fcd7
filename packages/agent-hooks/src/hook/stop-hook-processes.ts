// "Take effect at once": after a revoke, a switch turned off, `hooks uninstall`, Disconnect or a
// forget, the tool that did it stops every hook server of this user (each leaves; the next allowed
// event starts one again) and the background drainer of the state folder (it stops sending and
// leaves; its queued messages stay in the outbox).
import { pingHookServer } from './hook-forward.js';
import { HOOK_SERVER_PROTOCOL } from './hook-server-place.js';
import { runningHookServers } from './hook-server-status.js';
import { waitUntilGone } from './processes-gone.js';
import { stopDrainer } from './drainer-info.js';

export interface StoppedHookProcesses {
  /** Hook servers asked to leave (they finish the event in hand first). */
  readonly servers: number;
  /** Whether a drainer was running and was asked to leave. */
  readonly drainer: boolean;
}

/** Stops the hook servers and the drainer; waits at most about `timeoutMs` for them. Never throws. */
export async function stopHookProcesses(env: NodeJS.ProcessEnv, stateDirectory: string, timeoutMs = 3_000): Promise<StoppedHookProcesses> {
  const [servers, drainer] = await Promise.all([
    stopServers(env, timeoutMs).catch(() => 0),
    stopDrainer(stateDirectory, timeoutMs).catch(() => false),
  ]);
  return { servers, drainer };
}

async function stopServers(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<number> {
  const servers = await runningHookServers(env);
  // A stop request is honoured by a server of any build or protocol.
  await Promise.all(servers.map((server) => pingHookServer(server, server.build, HOOK_SERVER_PROTOCOL, 'stop', 300)));
  await waitUntilGone(servers.map((server) => server.pid), timeoutMs);
  return servers.length;
}
