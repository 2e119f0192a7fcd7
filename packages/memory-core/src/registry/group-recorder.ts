// Turns what ingestion accepted into registry writes: one write per group and batch, with the
// session, the workspace it ran in and a short, secret-guarded title. Runs off the chat path and
// never throws: a registry that cannot record must not stop delivery.
import { inject, injectable, optional } from 'inversify';
import { errorClassOf } from '../errors/graphiti-failure.js';
import { Clock, Logger, type ChatTurn, type OutboxEntry } from '../ports.js';
import { GroupIdResolver } from '../scopes/group-id-resolver.js';
import { SecretGuard } from '../secrets/secret-guard.js';
import { GroupRegistry, scopeOfGroupId, type GroupWrite } from './group-registry.js';

/** Who writes: the app binds it (`vscode-extension`, `graphiti-harness`, …). */
export interface GroupRecorderOptions {
  readonly tool: string;
}
export const GroupRecorderOptions = Symbol.for('graphiti-memory.GroupRecorderOptions');

/** Longest title kept: a preview to recognise a session by, not its content. */
export const TITLE_MAX_CHARS = 80;

/** An entry ingestion accepted, with the turn it was planned from (none for promotions). */
export interface AcceptedEntry {
  readonly entry: OutboxEntry;
  readonly turn?: ChatTurn | undefined;
}

@injectable()
export class GroupRecorder {
  private readonly tool: string;

  constructor(
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(SecretGuard) private readonly secretGuard: SecretGuard,
    @inject(Clock) private readonly clock: Clock,
    @inject(Logger) private readonly logger: Logger,
    @inject(GroupRegistry) @optional() private readonly registry?: GroupRegistry,
    @inject(GroupRecorderOptions) @optional() options?: GroupRecorderOptions,
  ) {
    this.tool = options?.tool.trim() || 'unknown';
  }

  async accepted(accepted: readonly AcceptedEntry[]): Promise<void> {
    if (this.registry === undefined || accepted.length === 0) return;
    try {
      this.registry.record(await this.writesOf(accepted));
    } catch (error) {
      this.logger.warn('registry: recording written groups failed', { errorClass: errorClassOf(error) });
    }
  }

  private async writesOf(accepted: readonly AcceptedEntry[]): Promise<GroupWrite[]> {
    const at = this.clock.now();
    const workspaceKey = await this.groups.resolve('workspace');
    const byGroup = new Map<string, { messages: number; turn?: ChatTurn | undefined; names: string[] }>();
    for (const { entry, turn } of accepted) {
      let known = byGroup.get(entry.groupId);
      if (known === undefined) {
        known = { messages: 0, ...(turn === undefined ? {} : { turn }), names: [] };
        byGroup.set(entry.groupId, known);
      }
      known.messages++;
      known.turn ??= turn;
      if (entry.message.name) known.names.push(entry.message.name);
    }
    const writes: GroupWrite[] = [];
    for (const [groupId, { messages, turn, names }] of byGroup) {
      const scope = scopeOfGroupId(groupId);
      if (scope === undefined) continue;
      const session = scope === 'session' && turn !== undefined;
      const title = session ? await this.titleOf(turn.user.text) : undefined;
      writes.push({
        groupId,
        scope,
        ...(scope !== 'user' && workspaceKey !== undefined ? { workspaceKey } : {}),
        ...(session ? { sessionId: turn.sessionId } : {}),
        ...(title === undefined ? {} : { title }),
        // The shared team group: which of its episodes are this user's, so a forget removes only those.
        ...(scope === 'team' ? { episodeNames: names } : {}),
        tool: this.tool,
        messages,
        at,
      });
    }
    return writes;
  }

  private titleOf(text: string): Promise<string | undefined> {
    return guardedTitle(this.secretGuard, text);
  }
}

/** The first non-empty line of `text`, secret-guarded, on one line, at most `TITLE_MAX_CHARS`. */
export async function guardedTitle(secretGuard: SecretGuard, text: string): Promise<string | undefined> {
  const line = text
    .split(/\r?\n/)
    .map((part) => part.trim())
    .find((part) => part !== '');
  if (line === undefined) return undefined;
  // Guard the whole line before cutting it, so a cut cannot hide a secret from the scanner.
  const guarded = (await secretGuard.redact(line)).text.replace(/\s+/g, ' ');
  return guarded.length <= TITLE_MAX_CHARS ? guarded : `${guarded.slice(0, TITLE_MAX_CHARS - 1)}…`;
}
