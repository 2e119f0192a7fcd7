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
  /** Every group written to at this endpoint (what forget covers). */
  readonly groupRegistry: string;
  /** Memories waiting for review (not endpoint-bound: approval sends to the endpoint of that run). */
  readonly pendingMemories: string;
  /** What left the machine, for every endpoint. */
  readonly auditLog: string;
}

export function stateLayout(stateDirectory: string, workspaceFolder: string, endpoint: string): StateLayout {
  const workspaceKey = shortHash(workspaceFolder);
  const endpointFolder = path.join(stateDirectory, 'endpoints', shortHash(endpoint));
  return {
    globalStore: path.join(stateDirectory, 'global.json'),
    workspaceStore: path.join(stateDirectory, 'workspaces', `${workspaceKey}.json`),
    outboxDirectory: path.join(endpointFolder, 'outbox'),
    watcherOffsets: path.join(endpointFolder, 'watcher-offsets.json'),
    groupRegistry: path.join(endpointFolder, 'group-registry.json'),
    pendingMemories: pendingMemoriesFile(stateDirectory),
    auditLog: auditLogFile(stateDirectory),
  };
}

/** The audit log of a state folder; commands that only read it need no endpoint. */
export function auditLogFile(stateDirectory: string): string {
  return path.join(stateDirectory, 'audit', 'audit.jsonl');
}

export function pendingMemoriesFile(stateDirectory: string): string {
  return path.join(stateDirectory, 'pending-memories.json');
}

function shortHash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}
