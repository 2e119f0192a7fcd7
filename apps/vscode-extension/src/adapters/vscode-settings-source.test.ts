// The extension's settings: what the user set in VS Code wins; what they did not comes from the
// configuration every tool reads (env > project file > user file), else VS Code's defaults.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfiguredMemorySettings } from '@graphiti-memory/memory-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as vscode from 'vscode';
import { waitFor } from '../test-support/extension-harness.js';
import { presetSettings, testHost, updateSettings } from '../test-support/vscode-double.js';
import { VsCodeSettingsSource } from './vscode-settings-source.js';

let root: string;
let userFile: string;
let workspace: string;
let projectFile: string;
const disposables: { dispose(): void }[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'vscode-settings-source-'));
  vi.stubEnv('GRAPHITI_MEMORY_CONFIG_DIR', path.join(root, 'config'));
  userFile = path.join(root, 'config', 'config.json');
  workspace = path.join(root, 'repo');
  projectFile = path.join(workspace, '.graphiti-memory.json');
  fs.mkdirSync(workspace, { recursive: true });
  testHost().workspaceFolders = [{ uri: vscode.Uri.file(workspace), name: 'repo', index: 0 }];
});

afterEach(() => {
  for (const disposable of disposables.splice(0)) disposable.dispose();
  vi.unstubAllEnvs();
  fs.rmSync(root, { recursive: true, force: true });
});

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value));
}

function configured(): ConfiguredMemorySettings {
  const configuration = new ConfiguredMemorySettings(new VsCodeSettingsSource());
  disposables.push(configuration);
  return configuration;
}

describe('VsCodeSettingsSource', () => {
  it("reads the user config.json's endpoint when VS Code has none", () => {
    writeJson(userFile, { endpoint: 'http://user-config.example:8000', groupIdStrategy: 'raw' });
    const settings = configured().current();
    expect(settings.endpoint).toBe('http://user-config.example:8000');
    expect(settings.groupIdStrategy).toBe('raw');
    const source = new VsCodeSettingsSource();
    source.read();
    expect(source.effective().settings.find((setting) => setting.key === 'endpoint')).toEqual({
      key: 'endpoint',
      value: 'http://user-config.example:8000',
      origin: 'user',
      source: userFile,
    });
  });

  it('lets what the user set in VS Code win over the files, the project file over the user file, and env over both', () => {
    // An untrusted project file may only narrow: fewer facts than the user file's 5.
    writeJson(userFile, { endpoint: 'http://user-config.example:8000', recall: { maxFacts: 5, timeoutMs: 400 }, server: 'rest' });
    writeJson(projectFile, { recall: { maxFacts: 3 } });
    presetSettings({ 'graphitiMemory.recall.timeoutMs': 900 });
    vi.stubEnv('GRAPHITI_MEMORY_SERVER', 'mcp');
    const source = new VsCodeSettingsSource();
    const configuration = new ConfiguredMemorySettings(source);
    disposables.push(configuration);
    expect(configuration.current()).toMatchObject({ endpoint: 'http://user-config.example:8000', serverKind: 'mcp', recall: { maxFacts: 3, timeoutMs: 900 } });
    const origins = Object.fromEntries(source.effective().settings.map((setting) => [setting.key, setting.origin]));
    expect(origins).toMatchObject({ endpoint: 'user', 'recall.maxFacts': 'project', 'recall.timeoutMs': 'vscode', serverKind: 'env', includeGitMetadata: 'default' });
  });

  it('reads recall.stale from VS Code, else from the files (a project file only more strictly)', () => {
    expect(configured().current().recall.stale).toBe('mark');
    writeJson(projectFile, { recall: { stale: 'drop' } });
    expect(configured().current().recall.stale).toBe('drop');
    presetSettings({ 'graphitiMemory.recall.stale': 'off' });
    expect(configured().current().recall.stale).toBe('off');
  });

  it("keeps VS Code's defaults when no file sets a value (git metadata off)", () => {
    const settings = configured().current();
    expect(settings).toMatchObject({ enabled: false, endpoint: 'http://localhost:8000', includeGitMetadata: false, groupIdStrategy: 'hashed' });
  });

  it('keeps memory off with the file and key named when a config file has a misspelt key', () => {
    writeJson(userFile, { endpiont: 'http://user-config.example:8000' });
    presetSettings({ 'graphitiMemory.enabled': true });
    const configuration = configured();
    expect(configuration.current().enabled).toBe(false);
    expect(configuration.problems()).toEqual([`${userFile}: unknown key \`endpiont\`; did you mean \`endpoint\`?`]);
  });

  it('notices changes to the user file and the project file, and to VS Code settings', async () => {
    const configuration = configured();
    let changes = 0;
    disposables.push(configuration.onDidChange(() => changes++));
    writeJson(userFile, { recall: { maxFacts: 4 } });
    await waitFor(() => configuration.current().recall.maxFacts === 4, 5000, 'the user file change');
    writeJson(projectFile, { recall: { maxFacts: 2 } });
    await waitFor(() => configuration.current().recall.maxFacts === 2, 5000, 'the project file change');
    const before = changes;
    updateSettings({ 'graphitiMemory.recall.maxFacts': 9 });
    expect(changes).toBe(before + 1);
    expect(configuration.current().recall.maxFacts).toBe(9);
  });
});
