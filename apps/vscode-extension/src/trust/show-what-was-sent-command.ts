// Show What Was Sent: the audit log every tool writes — each request of the extension, the harness
// and the agent hooks that carried memory content or a query off the machine — as a read-only
// document of its own scheme, opened in the Markdown preview (never an unsaved editor), one sentence
// per request for people: when (local time), which tool, what it did with which memory (scope names
// and conversation titles, never hashed group ids or episode names), where, how much, redactions.
// Filterable by tool and time through a quick pick. Never the content itself (the log does not hold it).
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { AUDIT_TOOLS, AuditLog, GroupIdResolver, GroupRegistry, Logger, digestWritersText, errorClassOf, type AuditEntry, type AuditTool } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';

/** The scheme of the read-only document: VS Code cannot save or edit it. */
export const SENT_SCHEME = 'graphiti-memory-sent';

/** Which requests to show: one tool's, and since how many hours ago (all when absent). */
export interface AuditFilter {
  readonly tool?: AuditTool;
  readonly hours?: number;
}

export const TIME_CHOICES: readonly { readonly label: string; readonly hours?: number }[] = [
  { label: 'Any time' },
  { label: 'Last hour', hours: 1 },
  { label: 'Last 24 hours', hours: 24 },
  { label: 'Last 7 days', hours: 24 * 7 },
];
const ALL_TOOLS = 'All tools';

export function applyFilter(entries: readonly AuditEntry[], filter: AuditFilter, now: Date = new Date()): AuditEntry[] {
  const since = filter.hours === undefined ? undefined : now.getTime() - filter.hours * 3_600_000;
  return entries.filter((entry) => (filter.tool === undefined || entry.tool === filter.tool) && (since === undefined || Date.parse(entry.at) >= since));
}

export function describeFilter(filter: AuditFilter): string {
  const time = TIME_CHOICES.find((choice) => choice.hours === filter.hours)?.label.toLowerCase() ?? `last ${filter.hours} hours`;
  return `${filter.tool ?? 'every tool'}, ${filter.hours === undefined ? 'any time' : time}`;
}

/** The document's address for a filter: one per filter, so each keeps its own preview. */
export function sentUri(filter: AuditFilter): vscode.Uri {
  const query = new URLSearchParams();
  if (filter.tool !== undefined) query.set('tool', filter.tool);
  if (filter.hours !== undefined) query.set('hours', String(filter.hours));
  return vscode.Uri.from({ scheme: SENT_SCHEME, path: '/What Was Sent.md', query: query.toString() });
}

export function filterOf(uri: vscode.Uri): AuditFilter {
  const query = new URLSearchParams(uri.query);
  const tool = query.get('tool');
  const hours = Number(query.get('hours'));
  return {
    ...(tool !== null && (AUDIT_TOOLS as readonly string[]).includes(tool) ? { tool: tool as AuditTool } : {}),
    ...(query.has('hours') && Number.isFinite(hours) && hours > 0 ? { hours } : {}),
  };
}

/** Newest entries shown; older ones stay in the log (rotated by size). */
export const AUDIT_ENTRIES_SHOWN = 500;

/** The memory a group holds, in words (`your workspace memory`, `the conversation "…"`): never its hashed id. */
export type GroupNames = ReadonlyMap<string, string>;

const TOOL_WORDS: Record<string, string> = {
  'vscode-extension': 'VS Code',
  'graphiti-harness': 'graphiti-harness',
  'agent-hooks': 'an agent hook (Claude Code, Copilot agent mode…)',
};

/** A moment in the local time zone, as people read it. */
function localTime(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function groupsInWords(groupIds: readonly string[], names: GroupNames): string {
  const words = [...new Set(groupIds.map((group) => names.get(group) ?? 'a memory this machine does not know (another workspace or machine)'))];
  return words.length <= 1 ? (words[0] ?? 'no memory') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** One request, as a sentence: when, which tool, what it did with which memory, where, how much. */
export function auditSentence(entry: AuditEntry, names: GroupNames = new Map()): string {
  const tool = TOOL_WORDS[entry.tool ?? ''] ?? entry.tool ?? 'A tool (not recorded)';
  const where = groupsInWords(entry.groupIds, names);
  const count = entry.episodeNames.length;
  const digests = digestWritersText(entry);
  const what =
    entry.kind === 'search'
      ? `searched ${where} for your question (${formatBytes(entry.bytes)}; the words themselves are not recorded)`
      : entry.kind === 'promotion'
        ? `stored ${count === 1 ? 'a curated memory' : `${count} curated memories`} in ${where}`
        : `sent ${count === 0 ? '' : count === 1 ? 'one piece of ' : `${count} pieces of `}conversation${digests === '' ? '' : ` (${digests})`} to ${where}`;
  const size = entry.kind === 'search' ? '' : `, ${formatBytes(entry.bytes)}`;
  const redacted = entry.redactions > 0 ? `; ${entry.redactions} secret${entry.redactions === 1 ? '' : 's'} removed before sending` : '';
  const face = entry.face === undefined ? '' : ` over ${entry.face.toUpperCase()}`;
  return `- **${localTime(entry.at)}** — ${tool.charAt(0).toUpperCase()}${tool.slice(1)} ${what} at ${entry.endpoint}${face}${size}${redacted}.`;
}

export function renderAuditLog(entries: readonly AuditEntry[], now: Date = new Date(), filter?: AuditFilter, names: GroupNames = new Map()): string {
  const lines = [
    '# What Graphiti Memory sent',
    '',
    `Everything this extension, graphiti-harness and the agent hooks sent off this machine with memory or a question in it, newest first (as of ${localTime(now.toISOString())}).`,
    'Only what was sent where, and how much, is recorded here: never the words themselves.',
    '',
  ];
  if (filter !== undefined) lines.push(`Showing: ${describeFilter(filter)}. Run "Graphiti Memory: Show What Was Sent" again for another choice.`, '');
  if (entries.length === 0) {
    lines.push(filter === undefined ? '_Nothing has been sent yet._' : '_Nothing was sent that matches this choice._');
    return `${lines.join('\n')}\n`;
  }
  const shown = [...entries].reverse().slice(0, AUDIT_ENTRIES_SHOWN);
  const bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  const redactions = entries.reduce((sum, entry) => sum + entry.redactions, 0);
  const searches = entries.filter((entry) => entry.kind === 'search').length;
  lines.push(
    `In all: ${entries.length - searches} time${entries.length - searches === 1 ? '' : 's'} memory was stored and ${searches} search${searches === 1 ? '' : 'es'}, ${formatBytes(bytes)}; ${redactions} secret${redactions === 1 ? '' : 's'} removed before sending.`,
    '',
  );
  for (const entry of shown) lines.push(auditSentence(entry, names));
  if (entries.length > shown.length) lines.push('', `_${entries.length - shown.length} older request(s) not shown._`);
  return `${lines.join('\n')}\n`;
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export interface ShowWhatWasSentResult {
  readonly ok: boolean;
  readonly entries: number;
  readonly text: string;
  readonly uri?: string;
}

@injectable()
export class ShowWhatWasSentCommand implements Contribution, vscode.TextDocumentContentProvider {
  readonly #changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.#changed.event;

  constructor(
    @inject(AuditLog) private readonly audit: AuditLog,
    @inject(Logger) private readonly logger: Logger,
    @inject(GroupIdResolver) private readonly groups: GroupIdResolver,
    @inject(GroupRegistry) private readonly registry: GroupRegistry,
  ) {}

  /** The groups this machine knows, in words: this workspace's scopes, and the conversations the registry recorded. */
  async #names(): Promise<GroupNames> {
    const names = new Map<string, string>();
    const scopes: Record<string, string> = { workspace: 'your workspace memory', user: 'your user memory', team: "the team's shared memory" };
    try {
      const records = await this.registry.list();
      const workspace = await this.groups.resolve('workspace');
      for (const record of records) {
        if (record.scope === 'session') {
          const mine = record.workspaceKey !== undefined && record.workspaceKey === workspace;
          // Never its title: the audit view holds no words of what was said.
          names.set(record.groupId, mine ? 'a conversation of this workspace' : 'a conversation of another workspace');
        } else if (record.scope === 'workspace') names.set(record.groupId, 'the memory of another workspace');
      }
      for (const { scope, groupId } of await this.groups.resolveMany(['workspace', 'user', 'team'])) if (groupId !== undefined) names.set(groupId, scopes[scope] ?? `${scope} memory`);
    } catch (error) {
      this.logger.info('show what was sent: naming the memory groups failed', { errorClass: errorClassOf(error) });
    }
    return names;
  }

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      this.#changed,
      vscode.workspace.registerTextDocumentContentProvider(SENT_SCHEME, this),
      vscode.commands.registerCommand('graphitiMemory.showWhatWasSent', (filter?: unknown) => this.run(filter)),
    );
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const filter = filterOf(uri);
    return renderAuditLog(applyFilter(await this.audit.read(), filter), new Date(), filter, await this.#names());
  }

  /** Asks for a filter (unless `filter` gives one: `{ tool?, hours? }`), then opens the preview. */
  async run(filterArgument?: unknown): Promise<ShowWhatWasSentResult> {
    const entries = await this.audit.read();
    const filter = filterArgument === undefined ? await this.#pickFilter(entries) : parseFilter(filterArgument);
    if (filter === undefined) return { ok: false, entries: 0, text: '' };
    const shown = applyFilter(entries, filter);
    const text = renderAuditLog(shown, new Date(), filter, await this.#names());
    const uri = sentUri(filter);
    // An open preview of the same filter shows the log as it is now.
    this.#changed.fire(uri);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', uri);
    } catch (error) {
      // Without the built-in Markdown extension: the same read-only document, as text.
      this.logger.info('show what was sent: no Markdown preview; showing the document', { errorClass: errorClassOf(error) });
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    }
    return { ok: true, entries: shown.length, text, uri: uri.toString() };
  }

  async #pickFilter(entries: readonly AuditEntry[]): Promise<AuditFilter | undefined> {
    const count = (items: readonly AuditEntry[]) => `${items.length} request${items.length === 1 ? '' : 's'}`;
    const tools = AUDIT_TOOLS.filter((tool) => entries.some((entry) => entry.tool === tool));
    const toolPick = await vscode.window.showQuickPick(
      [{ label: ALL_TOOLS, description: count(entries) }, ...tools.map((tool) => ({ label: tool, description: count(applyFilter(entries, { tool })) }))],
      { title: 'Show What Was Sent (1/2): from which tool?', placeHolder: 'Requests that carried memory off this machine, by the tool that sent them' },
    );
    if (toolPick === undefined) return undefined;
    const tool = (AUDIT_TOOLS as readonly string[]).includes(toolPick.label) ? (toolPick.label as AuditTool) : undefined;
    const timePick = await vscode.window.showQuickPick(
      TIME_CHOICES.map((choice) => ({
        label: choice.label,
        description: count(applyFilter(entries, { ...(tool === undefined ? {} : { tool }), ...(choice.hours === undefined ? {} : { hours: choice.hours }) })),
      })),
      { title: 'Show What Was Sent (2/2): since when?' },
    );
    if (timePick === undefined) return undefined;
    const hours = TIME_CHOICES.find((choice) => choice.label === timePick.label)?.hours;
    return { ...(tool === undefined ? {} : { tool }), ...(hours === undefined ? {} : { hours }) };
  }
}

/** A filter given to the command (by a test, a link or another extension), checked. */
function parseFilter(value: unknown): AuditFilter {
  if (typeof value !== 'object' || value === null) return {};
  const { tool, hours } = value as { tool?: unknown; hours?: unknown };
  return {
    ...(typeof tool === 'string' && (AUDIT_TOOLS as readonly string[]).includes(tool) ? { tool: tool as AuditTool } : {}),
    ...(typeof hours === 'number' && hours > 0 ? { hours } : {}),
  };
}
