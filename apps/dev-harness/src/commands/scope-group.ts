// The group id of one scope, as memory-core computes it for this workspace (and --session).
import type { MemoryScope } from '@graphiti-memory/memory-core';
import { UsageError } from '../cli/harness-errors.js';
import type { HarnessMemory } from '../composition/harness-container.js';

export async function groupOfScope(memory: HarnessMemory, scope: MemoryScope, sessionId: string | undefined): Promise<string> {
  if (scope === 'session' && sessionId === undefined) throw new UsageError('--scope session needs --session ID (the chat session).');
  const groupId = await memory.groups.resolve(scope, sessionId === undefined ? {} : { sessionId });
  if (groupId === undefined) throw new UsageError(`the ${scope} scope has no group here; pass --workspace PATH or --session ID.`);
  return groupId;
}
