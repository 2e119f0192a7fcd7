// What `hooks status` shows of the hook servers: whether the one of a given runner build runs for
// this user, since when, and which servers of other builds run beside it (say the extension's
// runner for Copilot next to the harness's for Claude Code).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pingHookServer } from './hook-forward.js';
import {
  HOOK_SERVER_INFO_FILE,
  HOOK_SERVER_PROTOCOL,
  hookServerEnabled,
  hookServerFolder,
  hookServerPlace,
  HOOK_SERVER_VARIABLE,
  readHookServerInfo,
  type HookServerStorageFault,
} from './hook-server-place.js';

export type HookServerStatus =
  | {
      readonly running: true;
      readonly pid: number;
      readonly since: string;
      readonly build: string;
      readonly socket: string;
      /** Open agent sessions that keep it through idle whiles (absent from older servers). */
      readonly openSessions?: number;
      readonly storageFault?: HookServerStorageFault;
    }
  | { readonly running: false; readonly socket: string | null; readonly reason: string };

export interface RunningHookServer {
  readonly pid: number;
  readonly since: string;
  readonly build: string;
  readonly socket: string;
}

/** The server of runner `build` (`undefined`: no runner was built, so there is none to ask for). */
export async function hookServerStatus(env: NodeJS.ProcessEnv, build: string | undefined): Promise<HookServerStatus> {
  if (!hookServerEnabled(env)) return { running: false, socket: null, reason: `turned off (${HOOK_SERVER_VARIABLE})` };
  if (build === undefined) return { running: false, socket: null, reason: 'no bundled hook runner (dist/hook-runner.cjs): build the harness (pnpm build); until then hooks run in their own process' };
  const place = hookServerPlace(env, build);
  if (place === undefined) return { running: false, socket: null, reason: 'its private folder is not safely ours; hooks run in their own process' };
  const answer = await pingHookServer(place, build, HOOK_SERVER_PROTOCOL);
  if (answer?.kind !== 'pong' || answer.build !== build) return { running: false, socket: place.socket, reason: 'not running (the next hook event starts it while memory is on with consent)' };
  return {
    running: true,
    pid: answer.pid,
    since: answer.since,
    build: answer.build,
    socket: place.socket,
    ...(answer.openSessions === undefined ? {} : { openSessions: answer.openSessions }),
    ...(answer.storageFault === undefined ? {} : { storageFault: answer.storageFault }),
  };
}

/**
 * Every hook server that answers for this user, of any build: found through the info files in the
 * private folder (a killed server's file is skipped: nothing answers on its socket).
 */
export async function runningHookServers(env: NodeJS.ProcessEnv): Promise<RunningHookServer[]> {
  const found = hookServerFolder(env);
  if (found === undefined) return [];
  const names = await fs.readdir(found.folder).catch(() => [] as string[]);
  const servers = await Promise.all(
    names
      .filter((name) => HOOK_SERVER_INFO_FILE.test(name))
      .map(async (name): Promise<RunningHookServer | undefined> => {
        const info = await readHookServerInfo(path.join(found.folder, name));
        // A server from before builds had a socket each is named for the user alone.
        if (info === undefined || (info.user !== found.user && name !== `hook-${found.user}.json`)) return undefined;
        if (typeof info.socket !== 'string' || typeof info.build !== 'string') return undefined;
        const answer = await pingHookServer({ socket: info.socket }, info.build, info.protocol ?? HOOK_SERVER_PROTOCOL, 'ping', 300);
        return answer?.kind === 'pong' ? { pid: answer.pid, since: answer.since, build: answer.build, socket: info.socket } : undefined;
      }),
  );
  return servers.filter((server) => server !== undefined).sort((a, b) => a.since.localeCompare(b.since));
}
