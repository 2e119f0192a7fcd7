import { injectable } from 'inversify';
import type { PromotionScope } from '../promotion/episode-format.js';
import { forgottenWith, type PendingMemory, type PendingMemoryStore } from './pending-memory-store.js';

/** Pending memories that live as long as the process (tests, one-shot tools). */
@injectable()
export class InMemoryPendingMemoryStore implements PendingMemoryStore {
  private readonly memories = new Map<string, PendingMemory>();

  async add(memory: PendingMemory): Promise<boolean> {
    if (this.memories.has(memory.id)) return false;
    this.memories.set(memory.id, memory);
    return true;
  }

  async list(): Promise<readonly PendingMemory[]> {
    return [...this.memories.values()].sort((left, right) => left.createdAt - right.createdAt);
  }

  async take(id: string): Promise<PendingMemory | undefined> {
    const memory = this.memories.get(id);
    this.memories.delete(id);
    return memory;
  }

  async forgetGroups(groupIds: readonly string[], scopesWithoutGroup: readonly PromotionScope[] = [], sessionsWithoutGroup: readonly string[] = []): Promise<number> {
    const forget = { groupIds: new Set(groupIds), scopesWithoutGroup, sessionsWithoutGroup: new Set(sessionsWithoutGroup) };
    const dropped = [...this.memories.values()].filter((memory) => forgottenWith(memory, forget));
    for (const memory of dropped) this.memories.delete(memory.id);
    return dropped.length;
  }
}
