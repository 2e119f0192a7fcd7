// Tests start hook servers for temporary HOMEs; each test stops its own. A runner starts its
// server detached after answering, so one may still be coming up when the test ends: wait a
// little for it before concluding there is none.
import { pingHookServer } from '../src/hook/hook-forward.js';
import { HOOK_SERVER_PROTOCOL, hookServerPlace } from '../src/hook/hook-server-place.js';

export async function stopHookServer(env: NodeJS.ProcessEnv, settleMs = 2_000): Promise<void> {
  const place = hookServerPlace(env);
  if (place === undefined) return;
  const deadline = Date.now() + settleMs;
  while ((await pingHookServer(place, '', HOOK_SERVER_PROTOCOL, 'stop', 200)) === undefined) {
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (let attempt = 0; attempt < 50; attempt++) {
    if ((await pingHookServer(place, '', HOOK_SERVER_PROTOCOL, 'ping', 100)) === undefined) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
