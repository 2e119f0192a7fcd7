// A state folder that is ours or nothing. It holds what the user said to their assistants: a folder
// another user owns (a `stateDir` pointed at it, a root-run tool finding a user's folder), or a
// symbolic link that could be swapped to lead anywhere, would put that text where someone else reads
// it or make memory write outside it. Memory stops instead, saying whose folder it is and what to do.
import { promises as fs, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Why memory does not use a state folder; `message` names the owner and what to do. */
export class StateFolderRefusal extends Error {
  override readonly name = 'StateFolderRefusal';
  constructor(
    readonly folder: string,
    readonly reason: 'not-owned' | 'symlink' | 'not-a-folder',
    message: string,
  ) {
    super(message);
  }
}

const WHAT_TO_DO = 'Set stateDir in your config.json (or GRAPHITI_MEMORY_STATE_DIR, or --state-dir) to a folder of your own';

/** The user name of `uid` from /etc/passwd when it is there; `undefined` otherwise. */
function userName(uid: number): string | undefined {
  try {
    if (statSync('/etc/passwd').size > 4 * 1024 * 1024) return undefined;
    const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((entry) => entry.split(':')[2] === String(uid));
    return line?.split(':')[0] || undefined;
  } catch {
    return undefined;
  }
}

function describeUser(uid: number): string {
  const name = userName(uid);
  return name === undefined ? `user id ${uid}` : `${name} (user id ${uid})`;
}

/**
 * `undefined` when `folder` may hold memory's state: missing (memory makes it, private), or a real
 * folder owned by this user. Otherwise the refusal to show. Never throws.
 */
export async function stateFolderRefusal(folder: string): Promise<StateFolderRefusal | undefined> {
  const root = path.resolve(folder);
  let stat;
  try {
    stat = await fs.lstat(root);
  } catch {
    return undefined;
  }
  if (stat.isSymbolicLink()) {
    const target = await fs.realpath(root).catch(() => 'a missing target');
    return new StateFolderRefusal(root, 'symlink', `Graphiti Memory's state folder ${root} is a symbolic link (to ${target}); memory is off until it is a real folder. ${WHAT_TO_DO}, or replace the link with the folder itself.`);
  }
  if (!stat.isDirectory()) {
    return new StateFolderRefusal(root, 'not-a-folder', `Graphiti Memory's state folder ${root} is not a folder; memory is off. ${WHAT_TO_DO}, or remove ${root}.`);
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    return new StateFolderRefusal(
      root,
      'not-owned',
      `Graphiti Memory's state folder ${root} belongs to ${describeUser(stat.uid)}, not to you (${describeUser(uid)}); memory is off so that nothing you say is written where they can read it. ${WHAT_TO_DO}, or have its owner remove it.`,
    );
  }
  return undefined;
}

/** Throws the `StateFolderRefusal` of `folder`, if any. */
export async function assertStateFolderOurs(folder: string): Promise<void> {
  const refusal = await stateFolderRefusal(folder);
  if (refusal !== undefined) throw refusal;
}
