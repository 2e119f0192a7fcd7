// Tests start hook servers (of one or more runner builds) for temporary HOMEs; each test stops its
// own. A runner starts its server detached after answering, so one may still be coming up when
// the test ends: wait a little for one before concluding there is none, and stop until none answer.
import { pingHookServer } from '../src/hook/hook-forward.js';
import { HOOK_SERVER_PROTOCOL } from '../src/hook/hook-server-place.js';
import { runningHookServers } from '../src/hook/hook-server-status.js';

export async function stopHookServer(env: NodeJS.ProcessEnv, settleMs = 2_000): Promise<void> {
  const deadline = Date.now() + settleMs;
  let stopped = 0;
  for (let attempt = 0; attempt < 100; attempt++) {
    const servers = await runningHookServers(env);
    if (servers.length === 0 && (stopped > 0 || Date.now() > deadline)) return;
    for (const server of servers) {
      await pingHookServer(server, server.build, HOOK_SERVER_PROTOCOL, 'stop', 200);
      stopped++;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
