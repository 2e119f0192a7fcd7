// A minimal sender for tests of the planning path against the emulator: what the planner or the
// promotion service produced goes to `/messages`, one call per group, as ingestion would send it.
import type { GraphitiApi, OutboxEntry } from '../src/ports.js';

export async function deliverEntries(api: GraphitiApi, entries: readonly OutboxEntry[]): Promise<number> {
  const byGroup = new Map<string, OutboxEntry['message'][]>();
  for (const entry of entries) {
    const messages = byGroup.get(entry.groupId) ?? [];
    messages.push(entry.message);
    byGroup.set(entry.groupId, messages);
  }
  for (const [groupId, messages] of byGroup) await api.addMessages({ group_id: groupId, messages });
  return byGroup.size;
}
