// Show Status names every setting in force and where it came from; the extension takes what VS
// Code leaves unset from the configuration files every tool reads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { answerMessages, updateSettings, windowRegistry } from '../test-support/vscode-double.js';
import { ProjectTrustPrompt } from '../trust/project-trust-prompt.js';
import { SHOW_CONFIGURATION, type StatusReport } from './status-commands.js';

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
    await waitFor(() => windowRegistry().shownDocuments.length > 0, 5000, 'the configuration document');
    const text = windowRegistry().shownDocuments[0]?.text ?? '';
    expect(text).toMatch(new RegExp(`graphitiMemory\\.recall\\.maxFacts\\s+= 5 {2}\\(project: ${projectFile.replace(/[.\\/]/g, '\\$&')}\\)`));
    expect(text).toMatch(/graphitiMemory\.groupIdStrategy\s+= "raw" {2}\(user: /);
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
    await waitFor(() => windowRegistry().shownDocuments.length > 0, 5000, 'the configuration document');
    expect(windowRegistry().shownDocuments[0]?.text).toContain(`# IGNORED groupIdStrategy (${projectFile}): a project file may only choose hashed group ids`);
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
