// Show What Was Sent: the audit log every tool writes — each request of the extension, the harness
// and the agent hooks that carried memory content or a query off the machine — rendered as a
// read-only Markdown document: when, which tool, where, over which face and operation, which groups,
// episode names, size and redactions. Never the content itself (the log does not hold it).
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { AuditLog, type AuditEntry } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';

/** Newest entries shown; older ones stay in the log (rotated by size). */
export const AUDIT_ENTRIES_SHOWN = 500;

export function renderAuditLog(entries: readonly AuditEntry[], now: Date = new Date()): string {
  const lines = [
    '# Graphiti Memory: what was sent',
    '',
    `Every request of every tool (this extension, graphiti-harness, agent hooks) that carried memory content or a query off this machine, newest first (${entries.length} recorded; as of ${now.toISOString()}).`,
    'Only where it went and how much is recorded here: never the content.',
    '',
  ];
  if (entries.length === 0) {
    lines.push('_Nothing has been sent yet._');
    return `${lines.join('\n')}\n`;
  }
  const shown = [...entries].reverse().slice(0, AUDIT_ENTRIES_SHOWN);
  const bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  const redactions = entries.reduce((sum, entry) => sum + entry.redactions, 0);
  lines.push(`Total: ${entries.length} request(s), ${formatBytes(bytes)}, ${redactions} secret(s) redacted before sending.`, '');
  lines.push('| Time | Tool | Endpoint | Operation | Groups | What | Size | Redacted |', '|---|---|---|---|---|---|---|---|');
  for (const entry of shown) {
    const names = entry.episodeNames.length <= 3 ? entry.episodeNames.join(', ') : `${entry.episodeNames.slice(0, 3).join(', ')} and ${entry.episodeNames.length - 3} more`;
    const what = entry.kind === 'search' ? 'recall query' : `${entry.kind === 'promotion' ? 'memory' : 'messages'}: ${names}`;
    const operation = entry.face === undefined ? entry.operation : `${entry.operation} (${entry.face.toUpperCase()})`;
    const groups = entry.groupIds.map((group) => `\`${cell(group)}\``).join(', ');
    lines.push(
      `| ${entry.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')} | ${entry.tool ?? 'unknown'} | ${cell(entry.endpoint)} | ${cell(operation)} | ${groups} | ${cell(what)} | ${formatBytes(entry.bytes)} | ${entry.redactions} |`,
    );
  }
  if (entries.length > shown.length) lines.push('', `_${entries.length - shown.length} older request(s) not shown._`);
  return `${lines.join('\n')}\n`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

@injectable()
export class ShowWhatWasSentCommand implements Contribution {
  constructor(@inject(AuditLog) private readonly audit: AuditLog) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(vscode.commands.registerCommand('graphitiMemory.showWhatWasSent', () => this.run()));
  }

  async run(): Promise<{ readonly ok: boolean; readonly entries: number; readonly text: string }> {
    const entries = await this.audit.read();
    const text = renderAuditLog(entries);
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: text });
    await vscode.window.showTextDocument(document, { preview: true });
    return { ok: true, entries: entries.length, text };
  }
}
