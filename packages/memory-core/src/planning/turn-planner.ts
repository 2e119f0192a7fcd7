// Turn planning: everything between a finalized turn and the outbox, run off the chat path by
// ingestion. Gate, scopes, group ids, mapping, the secret guard, the ownership context and
// directive auto-promotion, in that order; the result is the list of entries to deliver.
import type { Message } from '@graphiti-memory/graphiti-client';
import { inject, injectable, optional } from 'inversify';
import { parseDirectives } from '../directives/directive-parser.js';
import { ForgetLedger, forgottenContentKey, forgottenTurnKey } from '../forget/forget-ledger.js';
import { MemoryGate } from '../gate/memory-gate.js';
import { APP_NAME, isoTimestamp, turnToMessages } from '../mapping/turn-mapping.js';
import { formatOwnershipContext, neutraliseEpisodeTags } from '../promotion/episode-format.js';
import { PromotionService } from '../promotion/promotion-service.js';
import {
  Clock,
  TelemetrySink,
  WorkspaceContext,
  WorkspaceStore,
  type ChatTurn,
  type KeyValueStore,
  type MemoryScope,
  type OutboxEntry,
} from '../ports.js';
import { LoopService } from '../loops/loop-service.js';
import { PendingMemoryStore, pendingMemoryId } from '../review/pending-memory-store.js';
import { GroupIdResolver, type ResolvedGroup } from '../scopes/group-id-resolver.js';
import { folderIdentity, normaliseGitRemote } from '../scopes/group-ids.js';
import { SecretGuard } from '../secrets/secret-guard.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';
import { directiveHandling } from '../settings/memory-settings.js';
import type { IngestScopeSetting } from '../settings/memory-settings.js';

export interface TurnPlanner {
  /**
   * The outbox entries of a finalized turn: `[]` when the gate is closed. Messages are mapped and
   * redacted; entries for every configured scope, plus the ownership context and directive
   * promotions when enabled. Never touches the network.
   */
  plan(turn: ChatTurn): Promise<readonly OutboxEntry[]>;
}
export const TurnPlanner = Symbol.for('graphiti-memory.TurnPlanner');

/** WorkspaceStore key: the group ids that were given their ownership context. */
export const OWNERSHIP_CONTEXT_STORAGE_KEY = 'graphiti-memory.ownershipContextGroups';

/** The scopes a turn is sent to, in scope order. */
export function ingestScopes(setting: IngestScopeSetting): MemoryScope[] {
  return setting === 'both' ? ['session', 'workspace'] : [setting];
}

/** `graphiti-memory.ownership.<groupId>`: one ownership context per group, ever. */
export function ownershipMessageName(groupId: string): string {
  return `${APP_NAME}.ownership.${groupId}`;
}

@injectable()
export class DefaultTurnPlanner implements TurnPlanner {
  private ownershipSent: Set<string> | undefined;

  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(SecretGuard) private readonly secretGuard: SecretGuard,
    @inject(PromotionService) private readonly promotion: PromotionService,
    @inject(WorkspaceContext) private readonly workspace: WorkspaceContext,
    @inject(WorkspaceStore) private readonly workspaceStore: KeyValueStore,
    @inject(Clock) private readonly clock: Clock,
    @inject(TelemetrySink) private readonly telemetry: TelemetrySink,
    @inject(PendingMemoryStore) @optional() private readonly pending?: PendingMemoryStore,
    @inject(ForgetLedger) @optional() private readonly forgotten?: ForgetLedger,
    @inject(LoopService) @optional() private readonly loops?: LoopService,
  ) {}

  async plan(turn: ChatTurn): Promise<readonly OutboxEntry[]> {
    if (!this.gate.evaluate().open) {
      this.telemetry.emit({ type: 'dropped', messages: turn.assistant ? 2 : 1, reason: 'gate-closed' });
      return [];
    }
    // A forgotten turn stays forgotten under any session id (a resumed transcript copies it): no group gets it again.
    if (this.forgotten !== undefined) {
      const forgottenTurns = (await this.forgotten.read()).turns;
      // By id, and by content: a resumed transcript may give the same turn new message ids.
      if (forgottenTurns.size > 0 && (forgottenTurns.has(await forgottenTurnKey(turn.id)) || forgottenTurns.has(await forgottenContentKey(turn)))) return [];
    }
    const configured = this.configuration.current();
    // System prompts stay unsent while their category is on but not agreed to.
    const settings = { ...configured, includeSystemMessages: configured.includeSystemMessages && this.gate.evaluate('systemPrompts').open };
    const messages = await this.redactAll(
      turnToMessages(turn, {
        app: APP_NAME,
        maxMessageChars: settings.maxMessageChars,
        includeSystemMessages: settings.includeSystemMessages,
        includeGitMetadata: settings.includeGitMetadata,
        gitMetadata: settings.includeGitMetadata ? this.workspace.gitMetadata() : undefined,
      }),
    );
    const entries: OutboxEntry[] = [];
    const turnGroups: string[] = [];
    if (messages.length > 0) {
      const groups = await this.groups.resolveMany(ingestScopes(settings.scopes), { sessionId: turn.sessionId });
      for (const group of groups) {
        turnGroups.push(group.groupId);
        entries.push(...(await this.ownershipEntries(group, settings.includeSystemMessages)));
        for (const message of messages) entries.push({ groupId: group.groupId, message });
      }
    }
    // Directives are always looked for: held for review by default, promoted at once only when opted in.
    const review = directiveHandling(settings) === 'held-for-review';
    entries.push(...(await this.directivePromotions(turn, settings.includeSystemMessages, review, turnGroups)));
    // Loop markers (`TODO:`, `next:`, `done:` …) change the workspace's loops; each change is a `task_update` episode.
    entries.push(...(await this.loopUpdates(turn)));
    return entries;
  }

  private async redactAll(messages: readonly Message[]): Promise<Message[]> {
    let findings = 0;
    // The source description carries the branch name (with git metadata on): a branch named after a
    // token leaves the machine like the text does, so it is guarded too, once per distinct description.
    const descriptions = new Map<string, Promise<string>>();
    const guardedDescription = (description: string): Promise<string> => {
      let guarded = descriptions.get(description);
      if (guarded === undefined) {
        guarded = this.secretGuard.redact(description).then((result) => {
          for (const finding of result.findings) findings += finding.count;
          return result.text;
        });
        descriptions.set(description, guarded);
      }
      return guarded;
    };
    const redacted = await Promise.all(
      messages.map(async (message) => {
        const [result, sourceDescription] = await Promise.all([
          this.secretGuard.redact(message.content),
          message.source_description === undefined ? undefined : guardedDescription(message.source_description),
        ]);
        for (const finding of result.findings) findings += finding.count;
        // Captured text is data: markup quoted in a turn must not read as a product episode later.
        const content = neutraliseEpisodeTags(result.text);
        if (content === message.content && sourceDescription === message.source_description) return message;
        return sourceDescription === undefined ? { ...message, content } : { ...message, content, source_description: sourceDescription };
      }),
    );
    if (findings > 0) this.telemetry.emit({ type: 'redacted', findings });
    return redacted;
  }

  /** The loops' `task_update` entries of this turn; a failing store costs the loops, never the turn. */
  private async loopUpdates(turn: ChatTurn): Promise<OutboxEntry[]> {
    try {
      return (await this.loops?.captureTurn(turn)) ?? [];
    } catch {
      // A store that cannot be written (a full disk, a damaged file) must not cost the turn its capture.
      return [];
    }
  }

  /** Directives of the user text, promoted to their scope; one that held a secret is skipped. */
  private async directivePromotions(turn: ChatTurn, includeSystemMessages: boolean, review: boolean, turnGroups: readonly string[]): Promise<OutboxEntry[]> {
    const entries: OutboxEntry[] = [];
    const recordedAt = isoTimestamp(turn.user.timestamp);
    for (const directive of parseDirectives(turn.user.text)) {
      const planned = await this.promotion.plan({
        kind: directive.kind,
        scope: directive.scope,
        text: directive.text,
        ...(recordedAt === undefined ? {} : { now: new Date(recordedAt) }),
      });
      // Refusals (a secret in the directive, no such scope) are counted by the promotion service.
      if (!planned.ok) continue;
      if (review) {
        // Held for the user's review: nothing pending is sent (without a pending store, nothing at all).
        const text = directive.text.trim();
        await this.pending?.add({
          id: await pendingMemoryId(directive.kind, directive.scope, text),
          kind: directive.kind,
          scope: directive.scope,
          text,
          source: 'directive',
          createdAt: this.clock.now(),
          sessionId: turn.sessionId,
          // Where approval sends it, and where the turn it was said in went: a forget of either drops it.
          groupId: planned.entry.groupId,
          groupIds: [...new Set([planned.entry.groupId, ...turnGroups])],
        });
        continue;
      }
      const group = { scope: directive.scope, groupId: planned.entry.groupId };
      entries.push(...(await this.ownershipEntries(group, includeSystemMessages)), planned.entry);
    }
    return entries;
  }

  /** The ownership context of `group`, the first time the group is planned for (system messages on). */
  private async ownershipEntries(group: ResolvedGroup, includeSystemMessages: boolean): Promise<OutboxEntry[]> {
    // The team group is shared: no one person's ownership context belongs there.
    if (!includeSystemMessages || group.scope === 'team') return [];
    const sent = this.sentOwnership();
    if (sent.has(group.groupId)) return [];
    // Marked before any await, so two turns planned at once do not both add it.
    sent.add(group.groupId);
    const at = new Date(this.clock.now());
    const workspaceName = this.workspaceName();
    const text = formatOwnershipContext({
      scope: group.scope,
      owner: 'the user',
      at,
      ...(workspaceName === undefined ? {} : { workspaceName }),
    });
    const { text: content } = await this.secretGuard.redact(text);
    try {
      await this.workspaceStore.set(OWNERSHIP_CONTEXT_STORAGE_KEY, [...sent].sort());
    } catch {
      // Not persisted: a later run sends it again, which the delivery ledger de-duplicates by name.
    }
    const message: Message = {
      content,
      role_type: 'system',
      role: null,
      name: ownershipMessageName(group.groupId),
      timestamp: at.toISOString(),
      source_description: `${APP_NAME} ownership context`,
    };
    return [{ groupId: group.groupId, message }];
  }

  private sentOwnership(): Set<string> {
    if (this.ownershipSent === undefined) {
      const stored = this.workspaceStore.get<unknown>(OWNERSHIP_CONTEXT_STORAGE_KEY);
      this.ownershipSent = new Set(
        Array.isArray(stored) ? stored.filter((item): item is string => typeof item === 'string') : [],
      );
    }
    return this.ownershipSent;
  }

  /** The repository's or the first folder's name; the formatter keeps only its last segment. */
  private workspaceName(): string | undefined {
    const remote = this.workspace.gitRemote();
    if (remote !== undefined && normaliseGitRemote(remote) !== '') return normaliseGitRemote(remote);
    return folderIdentity(this.workspace.folderUris())?.split('\n')[0];
  }
}
