// One audit log for every tool: the extension writes to the shared state folder's log that
// graphiti-harness and the agent hooks write to, and Show What Was Sent lists all of it — tool,
// endpoint, face, operation, groups — never content. An earlier version's own log moves in.
import fs from 'node:fs';
import path from 'node:path';
import { AuditLog, type AuditEntry, type AuditTool } from '@graphiti-memory/memory-core';
import { FileAuditLog, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { describe, expect, it } from 'vitest';
import type * as vscode from 'vscode';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { chatRegistrations, LanguageModelTextPart, noCancellation, testHost, windowRegistry } from '../test-support/vscode-double.js';
import { SEARCH_TOOL } from '../tools/memory-tools.js';
import { renderAuditLog } from './show-what-was-sent-command.js';

const ON = { 'graphitiMemory.enabled': true, 'graphitiMemory.recall.enabled': true, 'graphitiMemory.autoPromote.review': false };

/** A request another tool recorded (as graphiti-harness and the hooks write the shared log). */
function otherTool(tool: AuditTool, face: 'rest' | 'mcp', operation: string, kind: AuditEntry['kind'], group: string): AuditEntry {
  return { at: new Date(Date.now() - 60_000).toISOString(), tool, endpoint: 'http://graphiti.example:8000', face, operation, groupIds: [group], episodeNames: [], bytes: 42, redactions: 0, kind };
}

async function search(query: string): Promise<string> {
  const tool = chatRegistrations().tools.get(SEARCH_TOOL) as vscode.LanguageModelTool<unknown>;
  const result = await tool.invoke({ input: { query, scopes: ['workspace'] }, toolInvocationToken: undefined } as vscode.LanguageModelToolInvocationOptions<unknown>, noCancellation());
  return (result?.content ?? []).map((part) => (part instanceof LanguageModelTextPart ? part.value : '')).join('');
}

describe('one audit log for every tool', () => {
  it("records the extension's promotions and recall queries in the shared log, and Show What Was Sent lists every tool's requests", async () => {
    const harness = await activateExtension({ settings: ON, consented: true });
    // What an earlier version logged in the extension's global storage.
    const legacy = { at: '2026-11-01T09:00:00.000Z', endpoint: harness.emulator.url, route: 'POST /messages', groupId: 'gm_user_legacy', episodeNames: ['graphiti-memory.promotion.x'], bytes: 12, redactions: 0, kind: 'promotion' };
    fs.mkdirSync(harness.context.globalStorageFolder, { recursive: true });
    fs.writeFileSync(path.join(harness.context.globalStorageFolder, 'audit-log.jsonl'), `${JSON.stringify(legacy)}\n`);
    // What graphiti-harness and an agent hook sent, in the shared log.
    const shared = sharedStateFiles(harness.stateDirectory).auditLog;
    const others = new FileAuditLog({ filePath: shared });
    others.record(otherTool('graphiti-harness', 'rest', 'POST /messages', 'messages', 'gm_session_harness'));
    others.record(otherTool('agent-hooks', 'mcp', 'search_memory_facts', 'search', 'gm_workspace_hooks'));
    await others.flush();

    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We deploy the API with Fly.io.' });
    await waitFor(() => harness.emulator.requests.some((request) => request.path === '/messages'), 5000, 'the promotion sent');
    await search('which platform hosts the API');
    // The extension appends in the background: wait for its writes before reading the file.
    await harness.container.get<AuditLog>(AuditLog).flush();

    const entries = await new FileAuditLog({ filePath: shared }).read();
    expect(entries.filter((entry) => entry.tool === 'vscode-extension').map((entry) => `${entry.face} ${entry.operation} ${entry.kind}`)).toEqual([
      'rest POST /messages promotion',
      'rest POST /search search',
    ]);
    const query = entries.find((entry) => entry.tool === 'vscode-extension' && entry.kind === 'search');
    expect(query?.bytes).toBe('which platform hosts the API'.length);
    expect(fs.existsSync(path.join(harness.context.globalStorageFolder, 'audit-log.jsonl'))).toBe(false);

    const shown = await harness.command<{ entries: number; text: string }>('graphitiMemory.showWhatWasSent', {});
    expect(shown.entries).toBe(5);
    // Sentences for people: tools and memories named in words, never hashed group ids or request routes.
    for (const expected of ['VS Code stored a curated memory in your workspace memory', 'Graphiti-harness sent conversation to', 'An agent hook (Claude Code, Copilot agent mode…) searched', 'VS Code searched your workspace memory for your question', 'over MCP', 'over REST']) {
      expect(shown.text).toContain(expected);
    }
    expect(shown.text).not.toMatch(/gm_user_legacy|gm_session_harness|POST \/|search_memory_facts|graphiti-memory\.promotion/);
    expect(shown.text).not.toMatch(/\d{4}-\d{2}-\d{2}T|\dZ\b/);
    expect(shown.text).not.toMatch(/Fly\.io|platform hosts/);
    // Shown in the Markdown preview of a read-only document, not in an editor.
    expect(windowRegistry().shownDocuments).toEqual([]);
    expect(testHost().executedCommands.some((executed) => executed.command === 'markdown.showPreview')).toBe(true);
  });
});

describe('Show What Was Sent and digests', () => {
  it('says who wrote each digest a request carried', () => {
    const entry: AuditEntry = { at: '2026-11-25T10:00:00.000Z', tool: 'vscode-extension', endpoint: 'http://127.0.0.1:8000', operation: 'POST /messages', groupIds: ['g'], episodeNames: ['graphiti-memory.digest.s1.t0'], bytes: 300, redactions: 0, kind: 'messages' };
    expect(renderAuditLog([{ ...entry, digestWriters: { 'graphiti-memory.digest.s1.t0': 'chatModel' } }])).toContain('sent one piece of conversation (1 digest: 1 by the chat model) to a memory this machine does not know');
    expect(renderAuditLog([entry])).not.toContain('digest:');
  });
});
