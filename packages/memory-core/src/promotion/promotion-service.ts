// Promotion: a curated memory (a decision, a preference, …) becomes one `role_type: "system"`
// message holding a `<graphiti_episode>` block, addressed to the workspace or user group. This
// module only plans the entry; ingestion delivers it. Text with a secret is refused, not redacted:
// a long-lived memory must not keep even the shape of a credential.
import type { Message } from '@graphiti-memory/graphiti-client';
import { inject, injectable, optional } from 'inversify';
import { MemoryGate } from '../gate/memory-gate.js';
import { truncateText } from '../mapping/truncation.js';
import { APP_NAME } from '../mapping/turn-mapping.js';
import { Clock, TelemetrySink, WorkspaceContext, type OutboxEntry } from '../ports.js';
import { normaliseGitRemote } from '../scopes/group-ids.js';
import { GroupIdResolver } from '../scopes/group-id-resolver.js';
import { SecretGuard } from '../secrets/secret-guard.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';
import { promotionMessageName } from './promotion-name.js';
import { formatPromotionEpisode, isPromotionKind, isPromotionScope, type PromotionAppliesTo, type PromotionScope } from './episode-format.js';

export interface PromotionRequest {
  /** One of `PROMOTION_KINDS`; anything else is refused with `invalid-kind`. */
  readonly kind: string;
  readonly scope: PromotionScope;
  readonly text: string;
  /** When the memory was recorded; the clock's now by default. */
  readonly now?: Date | number;
}

/** `team-not-consented`: the team scope needs its own consent (`team.consent`), which names who can read it. */
export type PromotionRefusal = 'gate-closed' | 'secret' | 'invalid-kind' | 'empty' | 'no-scope' | 'team-not-consented';

export type PromotionPlan =
  | { readonly ok: true; readonly entry: OutboxEntry }
  | { readonly ok: false; readonly reason: PromotionRefusal };

export interface PromotionService {
  /**
   * The outbox entry that promotes `text` (hand it to ingestion), or why it is refused. Never
   * touches the network; never rejects.
   */
  plan(request: PromotionRequest): Promise<PromotionPlan>;
}
export const PromotionService = Symbol.for('graphiti-memory.PromotionService');

export { promotionMessageName } from './promotion-name.js';

/** Room the episode block's tags and attributes take around the text. */
const BLOCK_OVERHEAD = 160;

/** Repository-relative file paths a text names (`src/a.ts`, `docs/how-it-works.md`), at most 10, in order. */
function filesNamedIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|[\s`'"(])((?:[\w.-]+\/)+[\w-][\w.-]*\.[A-Za-z0-9]{1,8})(?=$|[\s`'"),:;]|\.(?:\s|$))/g)) {
    const file = match[1] ?? '';
    if (file.startsWith('/') || file.includes('..') || found.includes(file) || /^(?:https?|www)\b/i.test(file)) continue;
    found.push(file);
    if (found.length === 10) break;
  }
  return found;
}

/** Characters the applies-to attributes and sentence add to a block, at most: kept out of the text's share. */
function appliesToLength(appliesTo: PromotionAppliesTo): number {
  return Object.keys(appliesTo).length === 0 ? 0 : JSON.stringify(appliesTo).length * 2 + 48;
}

@injectable()
export class DefaultPromotionService implements PromotionService {
  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(SecretGuard) private readonly secretGuard: SecretGuard,
    @inject(Clock) private readonly clock: Clock,
    @inject(TelemetrySink) private readonly telemetry: TelemetrySink,
    @inject(WorkspaceContext) @optional() private readonly workspace?: WorkspaceContext,
  ) {}

  async plan(request: PromotionRequest): Promise<PromotionPlan> {
    try {
      return await this.planUnsafe(request);
    } catch {
      // A failing dependency (hashing, storage) must not surface as a rejection in a command.
      return { ok: false, reason: 'no-scope' };
    }
  }

  private async planUnsafe(request: PromotionRequest): Promise<PromotionPlan> {
    if (!this.gate.evaluate().open) {
      this.telemetry.emit({ type: 'dropped', messages: 1, reason: 'gate-closed' });
      return { ok: false, reason: 'gate-closed' };
    }
    const { kind, scope } = request;
    if (!isPromotionKind(kind)) return { ok: false, reason: 'invalid-kind' };
    const text = typeof request.text === 'string' ? request.text.trim() : '';
    if (text === '') return { ok: false, reason: 'empty' };
    if (!isPromotionScope(scope)) return { ok: false, reason: 'no-scope' };
    const settings = this.configuration.current();
    if (scope === 'team' && !settings.team.consent) return { ok: false, reason: 'team-not-consented' };
    const scan = await this.secretGuard.redact(text);
    if (scan.findings.length > 0) {
      this.telemetry.emit({ type: 'dropped', messages: 1, reason: 'secret' });
      return { ok: false, reason: 'secret' };
    }
    const groupId = await this.groups.resolve(scope);
    if (groupId === undefined) return { ok: false, reason: 'no-scope' };

    const at = this.recordedAt(request.now);
    const maxChars = settings.maxMessageChars;
    const author = scope === 'team' ? settings.team.displayName.replace(/\s+/g, ' ').trim() : '';
    // The author's own key, hashed (their user group id), keeps teammates' episodes apart; no raw user data.
    const authorKey = scope === 'team' ? await this.groups.resolve('user') : undefined;
    const appliesTo = this.appliesTo(text, settings.includeGitMetadata);
    const content = formatPromotionEpisode({ kind, scope, text: truncateText(text, Math.max(120, maxChars - BLOCK_OVERHEAD - appliesToLength(appliesTo))), at, author, appliesTo });
    const message: Message = {
      content,
      role_type: 'system',
      role: null,
      name: await promotionMessageName(kind, scope, text, authorKey),
      timestamp: at.toISOString(),
      source_description: `${APP_NAME} promotion; kind=${kind}; scope=${scope}${author === '' ? '' : `; author=${author}`}`,
    };
    this.telemetry.emit({ type: 'promoted', kind, scope });
    return { ok: true, entry: { groupId, message } };
  }

  /** The repository (its normalised remote), the branch (only with git metadata on) and the files the text names. */
  private appliesTo(text: string, gitMetadata: boolean): PromotionAppliesTo {
    const remote = this.workspace?.gitRemote();
    const repository = remote === undefined || remote.trim() === '' ? '' : normaliseGitRemote(remote);
    const branch = gitMetadata ? (this.workspace?.gitMetadata()?.branch ?? '') : '';
    const files = filesNamedIn(text);
    return { ...(repository === '' ? {} : { repository }), ...(branch === '' ? {} : { branch }), ...(files.length === 0 ? {} : { files }) };
  }

  private recordedAt(now: Date | number | undefined): Date {
    const at = now === undefined ? new Date(this.clock.now()) : new Date(now);
    return Number.isNaN(at.getTime()) ? new Date(this.clock.now()) : at;
  }
}
