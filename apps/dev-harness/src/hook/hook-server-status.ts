// What `hooks status` shows of the hook server: whether one runs for this user, since when, and
// of which build (a server of an older build steps down at the next event).
import { pingHookServer } from './hook-forward.js';
import { HOOK_SERVER_PROTOCOL, hookServerEnabled, hookServerPlace, HOOK_SERVER_VARIABLE } from './hook-server-place.js';

export type HookServerStatus =
  | { readonly running: true; readonly pid: number; readonly since: string; readonly build: string; readonly socket: string }
  | { readonly running: false; readonly socket: string | null; readonly reason: string };

export async function hookServerStatus(env: NodeJS.ProcessEnv): Promise<HookServerStatus> {
  if (!hookServerEnabled(env)) return { running: false, socket: null, reason: `turned off (${HOOK_SERVER_VARIABLE})` };
  const place = hookServerPlace(env);
  if (place === undefined) return { running: false, socket: null, reason: 'its private folder is not safely ours; hooks run in their own process' };
  const answer = await pingHookServer(place, '', HOOK_SERVER_PROTOCOL);
  if (answer?.kind !== 'pong') return { running: false, socket: place.socket, reason: 'not running (the next hook event starts it while memory is on with consent)' };
  return { running: true, pid: answer.pid, since: answer.since, build: answer.build, socket: place.socket };
}
