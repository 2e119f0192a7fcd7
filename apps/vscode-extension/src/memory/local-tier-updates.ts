// The extension's promotes, approvals and forgets update the agent hooks' local tier in the shared
// state folder, so the next SessionStart brief in Claude Code or Copilot agent mode says what memory
// holds now, even while Graphiti is down. The tier is a cache: a failed update is logged (without
// content), never shown as a failed command.
import { LocalTierStore } from '@graphiti-memory/agent-hooks';
import { errorClassOf, type GroupIdResolver, type Logger, type MemoryGate, type PromotionScope } from '@graphiti-memory/memory-core';
import { sharedStateDirectory } from '@graphiti-memory/memory-node-storage';

export interface TierUpdateDependencies {
  readonly gate: MemoryGate;
  readonly groups: GroupIdResolver;
  readonly logger: Logger;
}

/** Records a promotion just queued (`sent`: its group and episode name) in this workspace's tier. */
export async function recordPromotionInTier(
  dependencies: TierUpdateDependencies,
  promotion: { readonly kind: string; readonly scope: PromotionScope; readonly text: string },
  sent: { readonly groupId: string; readonly episodeName: string },
): Promise<void> {
  try {
    const decision = dependencies.gate.evaluate();
    const workspace = await dependencies.groups.resolve('workspace');
    if (!decision.open || workspace === undefined) return;
    await new LocalTierStore(await sharedStateDirectory()).addPromotion(decision.endpoint, workspace, {
      kind: promotion.kind,
      scope: promotion.scope,
      text: promotion.text,
      groupId: sent.groupId,
      episodeName: sent.episodeName,
    });
  } catch (error) {
    dependencies.logger.warn('recording a promotion in the local tier failed', { errorClass: errorClassOf(error) });
  }
}

/** Drops forgotten groups from every tier of the endpoint in force. */
export async function recordForgetInTier(dependencies: Pick<TierUpdateDependencies, 'gate' | 'logger'>, groupIds: readonly string[]): Promise<void> {
  try {
    const decision = dependencies.gate.evaluate();
    if (!decision.open) return;
    await new LocalTierStore(await sharedStateDirectory()).forgetGroups(decision.endpoint, groupIds);
  } catch (error) {
    dependencies.logger.warn('removing forgotten groups from the local tier failed', { errorClass: errorClassOf(error) });
  }
}
