// Show Status names every setting in force and where it came from; the extension takes what VS
// Code leaves unset from the configuration files every tool reads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { answerMessages, testHost, updateSettings, windowRegistry } from '../test-support/vscode-double.js';
import { ProjectTrustPrompt } from '../trust/project-trust-prompt.js';
import { SHOW_CONFIGURATION, type StatusReport } from './status-commands.js';
import * as vscodeApi from 'vscode';
import { DOCUMENT_SCHEME } from '../episodes/read-only-documents.js';

let root: string;
let userFile: string;
let workspace: string;
let projectFile: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'effective-configuration-'));
  vi.stubEnv('GRAPHITI_MEMORY_CONFIG_DIR', path.join(root, 'config'));
  userFile = path.join(root, 'config', 'config.json');
  workspace = path.join(root, 'repo');
  projectFile = path.join(workspace, '.graphiti-memory.json');
  fs.mkdirSync(path.dirname(userFile), { recursive: true });
  fs.mkdirSync(workspace, { recursive: true });
});

afterEach(() => {
  vi.unstubAllEnvs();
  fs.rmSync(root, { recursive: true, force: true });
});

/** The settings document Show Configuration opened in the Markdown preview (read-only, its own scheme). */
async function configurationDocument(): Promise<string> {
  await waitFor(() => testHost().executedCommands.some((run) => run.command === 'markdown.showPreview'), 5000, 'the configuration document');
  const uri = testHost().executedCommands.find((run) => run.command === 'markdown.showPreview')?.args[0] as vscodeApi.Uri;
  expect(uri.scheme).toBe(DOCUMENT_SCHEME);
  return (await vscodeApi.workspace.openTextDocument(uri)).getText();
}

describe('the effective configuration', () => {
  it('is in Show Status, each setting with its origin, and opens as a document on request', async () => {
    fs.writeFileSync(userFile, JSON.stringify({ groupIdStrategy: 'raw' }));
    fs.writeFileSync(projectFile, JSON.stringify({ recall: { maxFacts: 5 } }));
    const harness = await activateExtension({ workspaceFolder: workspace });
    answerMessages(SHOW_CONFIGURATION);
    const report = await harness.command<StatusReport>('graphitiMemory.showStatus');
    const byKey = Object.fromEntries((report.configuration?.settings ?? []).map((setting) => [setting.key, setting]));
    expect(byKey['recall.maxFacts']).toEqual({ key: 'recall.maxFacts', value: 5, origin: 'project', source: projectFile });
    expect(byKey['groupIdStrategy']).toEqual({ key: 'groupIdStrategy', value: 'raw', origin: 'user', source: userFile });
    expect(byKey['endpoint']).toMatchObject({ value: harness.emulator.url, origin: 'vscode' });
    expect(byKey['includeGitMetadata']).toMatchObject({ value: false, origin: 'default' });
    expect(report.configuration?.files).toEqual({ user: userFile, project: projectFile });
    const text = await configurationDocument();
    expect(text).toContain(`| \`recall.maxFacts\` | 5 | the project file (\`${projectFile}\`) |`);
    expect(text).toContain(`| \`groupIdStrategy\` | "raw" | your user config file (\`${userFile}\`) |`);
    expect(text).toContain('| `endpoint` | "http://127.0.0.1:');
    // Read-only: a document of the extension's own scheme, never an Untitled editor.
    expect(windowRegistry().shownDocuments).toEqual([]);
  });

  it("sends to the user config.json's endpoint when VS Code sets none", async () => {
    const harness = await activateExtension({ workspaceFolder: workspace, settings: { 'graphitiMemory.enabled': true }, consented: true });
    fs.writeFileSync(userFile, JSON.stringify({ endpoint: harness.emulator.url }));
    updateSettings({ 'graphitiMemory.endpoint': undefined });
    const report = await harness.command<StatusReport>('graphitiMemory.showStatus');
    expect(report.configuration?.settings.find((setting) => setting.key === 'endpoint')).toMatchObject({ value: harness.emulator.url, origin: 'user' });
    expect(report.state).toBe('ok');
    await harness.command('graphitiMemory.promote', { kind: 'decision', scope: 'workspace', text: 'We use zod.' });
    await waitFor(() => harness.dataRequests().some((request) => request.route === 'messages'), 5000, 'the promotion at the configured endpoint');
  });

  it("names what of an untrusted project file was ignored, and does not apply it", async () => {
    fs.writeFileSync(projectFile, JSON.stringify({ groupIdStrategy: 'raw', recall: { maxFacts: 5 } }));
    const harness = await activateExtension({ workspaceFolder: workspace });
    // The file asks for more than it may: its trust question (dismissed here) comes first, then Show Status's notification.
    answerMessages(undefined);
    await harness.container.get(ProjectTrustPrompt).check();
    answerMessages(SHOW_CONFIGURATION);
    const report = await harness.command<StatusReport>('graphitiMemory.showStatus');
    expect(report.configuration?.ignored.map((entry) => [entry.key, entry.file])).toEqual([['groupIdStrategy', projectFile]]);
    const byKey = Object.fromEntries((report.configuration?.settings ?? []).map((setting) => [setting.key, setting]));
    expect(byKey['groupIdStrategy']).toMatchObject({ value: 'hashed', origin: 'default' });
    expect(byKey['recall.maxFacts']).toMatchObject({ value: 5, origin: 'project' });
    expect(await configurationDocument()).toContain(`- \`groupIdStrategy\` in \`${projectFile}\`: a project file may only choose hashed group ids`);
  });

  it("ignores and names a project file's misspelt key: a cloned repository cannot switch memory off", async () => {
    fs.writeFileSync(projectFile, JSON.stringify({ recall: { maxFact: 3 } }));
    const harness = await activateExtension({ workspaceFolder: workspace, settings: { 'graphitiMemory.enabled': true }, consented: true });
    const report = await harness.command<StatusReport>('graphitiMemory.showStatus');
    expect(report.state).not.toBe('invalid');
    expect(report.configuration?.problems).toEqual([]);
    const ignored = report.configuration?.ignored.find((entry) => entry.key === 'recall.maxFact');
    expect(ignored).toMatchObject({ key: 'recall.maxFact', file: projectFile });
    expect(JSON.stringify(ignored)).toContain('recall.maxFacts');
  });
});
