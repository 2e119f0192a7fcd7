// What each captured message carries from enqueue to delivery: the tool that captured it (as a
// person names it), its session and the session's first prompt line (short, secret-guarded), so
// the episode's facts can cite it once delivery confirmation learns the episode's uuid.
import { inject, injectable, optional } from 'inversify';
import type { ChatTurn, MessageSource, OutboxEntry } from '../ports.js';
import { GroupRecorderOptions, guardedTitle } from '../registry/group-recorder.js';
import { SecretGuard } from '../secrets/secret-guard.js';
import { sourceField } from './episode-sources.js';
import { forgottenContentKey } from '../forget/forget-ledger.js';
import { agentLabelOf } from '../transcripts/agent-transcripts.js';

/** Sessions whose first prompt line is remembered in one process (the oldest are let go). */
const MAX_REMEMBERED_SESSIONS = 200;

/**
 * How a citation names the tool: the participant that answered wins where it names an agent
 * (`claude-code` → Claude Code, `copilot-agent` → Copilot: agent-transcripts.ts), else the tool
 * that captured it.
 */
export function toolLabel(tool: string, participant?: string): string {
  const answered = agentLabelOf(participant);
  if (answered !== undefined) return answered;
  switch (tool) {
    case 'vscode-extension':
      return 'VS Code chat';
    case 'agent-hooks':
      return 'agent hooks';
    default:
      return tool.trim() === '' ? 'unknown' : tool.trim();
  }
}

@injectable()
export class MessageSourceStamp {
  private readonly tool: string;
  /** sessionId → its first prompt line, as first seen here. */
  private readonly titles = new Map<string, string | undefined>();

  constructor(
    @inject(SecretGuard) private readonly secretGuard: SecretGuard,
    @inject(GroupRecorderOptions) @optional() options?: GroupRecorderOptions,
  ) {
    this.tool = options?.tool ?? 'unknown';
  }

  /** The source of a turn's messages; of ready entries (promotions, imports) without a turn: the tool alone. */
  async sourceOf(turn?: ChatTurn): Promise<MessageSource> {
    if (turn === undefined) return { tool: toolLabel(this.tool) };
    const session = sourceField(turn.sessionId);
    const title = await this.titleOf(turn);
    return {
      tool: toolLabel(this.tool, turn.participant),
      ...(session === undefined ? {} : { session }),
      ...(title === undefined ? {} : { title }),
      contents: [await forgottenContentKey(turn)],
    };
  }

  /** Entries given their source, unless they carry one already (a caller that knew better). */
  async stamp(entries: readonly OutboxEntry[], turn?: ChatTurn): Promise<OutboxEntry[]> {
    if (entries.every((entry) => entry.source !== undefined)) return [...entries];
    const source = await this.sourceOf(turn);
    return entries.map((entry) => (entry.source === undefined ? { ...entry, source } : entry));
  }

  private async titleOf(turn: ChatTurn): Promise<string | undefined> {
    if (this.titles.has(turn.sessionId)) return this.titles.get(turn.sessionId);
    const title = await guardedTitle(this.secretGuard, turn.user.text);
    if (this.titles.size >= MAX_REMEMBERED_SESSIONS) {
      const oldest = this.titles.keys().next().value;
      if (oldest !== undefined) this.titles.delete(oldest);
    }
    this.titles.set(turn.sessionId, title);
    return title;
  }
}
