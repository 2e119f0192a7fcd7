import { injectable } from 'inversify';
import type { PendingMemory, PendingMemoryStore } from './pending-memory-store.js';

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
}
