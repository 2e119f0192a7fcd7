// The harness's promotes, approvals and forgets update the hooks' local tier, so the next
// SessionStart brief of any tool says what memory holds now, even with Graphiti down. The tier is
// a cache: failing to update it is a warning, never a failed command.
import { LocalTierStore } from '@graphiti-memory/agent-hooks';
import { errorClassOf, type ForgetTarget, type OutboxEntry, type PromotionScope } from '@graphiti-memory/memory-core';
import type { HarnessMemory } from '../composition/harness-container.js';
import type { Output } from '../terminal/output.js';

export async function recordPromotion(
  output: Output,
  memory: Pick<HarnessMemory, 'stateDirectory' | 'endpoint' | 'groups'>,
  promotion: { readonly kind: string; readonly scope: PromotionScope; readonly text: string },
  entry: OutboxEntry,
): Promise<void> {
  try {
    const workspace = await memory.groups.resolve('workspace');
    if (workspace === undefined) return;
    await new LocalTierStore(memory.stateDirectory).addPromotion(memory.endpoint.url, workspace, {
      kind: promotion.kind,
      scope: promotion.scope,
      text: promotion.text,
      groupId: entry.groupId,
      episodeName: entry.message.name ?? '',
      ...(entry.message.timestamp === undefined ? {} : { createdAt: entry.message.timestamp }),
    });
  } catch (error) {
    warn(output, 'recording the promotion in the local tier failed', error);
  }
}

export async function recordForget(output: Output, memory: Pick<HarnessMemory, 'stateDirectory' | 'endpoint'>, targets: readonly ForgetTarget[]): Promise<void> {
  try {
    await new LocalTierStore(memory.stateDirectory).forgetGroups(memory.endpoint.url, targets.map((target) => target.groupId));
  } catch (error) {
    warn(output, 'removing forgotten groups from the local tier failed', error);
  }
}

function warn(output: Output, what: string, error: unknown): void {
  output.warn(`${what} (${errorClassOf(error)}); the next SessionStart refreshes it from Graphiti.`);
}
