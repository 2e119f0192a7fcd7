// Where the harness keeps its state inside the state folder. Delivery state (outbox and ledger) is
// kept per endpoint: what one Graphiti stored says nothing about another, and the in-process
// emulator (a new port each run) starts from nothing, as its data does.
import { createHash } from 'node:crypto';
import path from 'node:path';

export interface StateLayout {
  /** GlobalStore: the user-scope key. */
  readonly globalStore: string;
  /** WorkspaceStore of this workspace: consent, ownership marks. */
  readonly workspaceStore: string;
  /** The durable outbox's folder, for this endpoint. */
  readonly outboxDirectory: string;
  /** Transcript watcher offsets. */
  readonly watcherOffsets: string;
}

export function stateLayout(stateDirectory: string, workspaceFolder: string, endpoint: string): StateLayout {
  const workspaceKey = shortHash(workspaceFolder);
  const endpointFolder = path.join(stateDirectory, 'endpoints', shortHash(endpoint));
  return {
    globalStore: path.join(stateDirectory, 'global.json'),
    workspaceStore: path.join(stateDirectory, 'workspaces', `${workspaceKey}.json`),
    outboxDirectory: path.join(endpointFolder, 'outbox'),
    watcherOffsets: path.join(endpointFolder, 'watcher-offsets.json'),
  };
}

function shortHash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}
