import { injectable } from 'inversify';
import { mergeGroupWrite, sortGroupRecords, type GroupRecord, type GroupRegistry, type GroupWrite } from './group-registry.js';

/** A registry that lives as long as the process (tests, one-shot tools). */
@injectable()
export class InMemoryGroupRegistry implements GroupRegistry {
  private readonly records = new Map<string, GroupRecord>();

  record(writes: readonly GroupWrite[]): void {
    for (const write of writes) this.records.set(write.groupId, mergeGroupWrite(this.records.get(write.groupId), write));
  }

  async list(): Promise<readonly GroupRecord[]> {
    return sortGroupRecords(this.records.values());
  }

  async remove(groupIds: readonly string[]): Promise<void> {
    for (const groupId of groupIds) this.records.delete(groupId);
  }

  async flush(): Promise<void> {}
}
