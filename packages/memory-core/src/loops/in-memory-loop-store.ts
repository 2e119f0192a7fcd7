// Loops kept in memory: tests, and a host without a state folder (they end with the process).
import { injectable } from 'inversify';
import type { LoopStore, OpenLoop } from './open-loop.js';

@injectable()
export class InMemoryLoopStore implements LoopStore {
  private loops: readonly OpenLoop[] = [];

  async list(): Promise<readonly OpenLoop[]> {
    return this.loops;
  }

  async update<T>(change: (current: readonly OpenLoop[]) => { readonly next?: readonly OpenLoop[]; readonly result: T }): Promise<T> {
    const { next, result } = change(this.loops);
    if (next !== undefined) this.loops = [...next];
    return result;
  }
}
