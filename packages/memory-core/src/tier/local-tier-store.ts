// Where the local tier's content is kept: one record per endpoint and workspace group. A port, so
// memory-core's policy (`LocalTier`) decides what goes in and memory-node-storage's
// `FileLocalTierStore` keeps it in the state folder, shared by every tool.
import type { TierContent } from './tier-content.js';

/** The tier of one workspace group at one (normalised) endpoint. */
export interface TierKey {
  readonly endpoint: string;
  readonly workspaceGroup: string;
}

export interface LocalTierStore {
  /** The tier; `undefined` when there is none or it cannot be read (it is a cache). */
  read(key: TierKey): Promise<TierContent | undefined>;
  /** Changes the tier atomically (`current`: undefined when there is none yet); what `change` returned. */
  update(key: TierKey, change: (current: TierContent | undefined) => TierContent): Promise<TierContent>;
  /** The workspace groups with a tier at `endpoint`; records the store can no longer read are let go. */
  workspaceGroups(endpoint: string): Promise<string[]>;
}
export const LocalTierStore = Symbol.for('graphiti-memory.LocalTierStore');

/** The tier in memory: nothing survives the process (tests, one-shot tools). */
export class InMemoryLocalTierStore implements LocalTierStore {
  private readonly tiers = new Map<string, TierContent>();

  read(key: TierKey): Promise<TierContent | undefined> {
    return Promise.resolve(this.tiers.get(keyOf(key)));
  }

  update(key: TierKey, change: (current: TierContent | undefined) => TierContent): Promise<TierContent> {
    const next = change(this.tiers.get(keyOf(key)));
    this.tiers.set(keyOf(key), next);
    return Promise.resolve(next);
  }

  workspaceGroups(endpoint: string): Promise<string[]> {
    return Promise.resolve([...this.tiers.values()].filter((tier) => tier.endpoint === endpoint).map((tier) => tier.workspaceGroup));
  }
}

function keyOf(key: TierKey): string {
  return `${key.endpoint}\n${key.workspaceGroup}`;
}
