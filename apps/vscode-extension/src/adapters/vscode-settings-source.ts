// memory-core parses the settings; this adapter only reads VS Code's values of every
// `graphitiMemory.*` key (as flat dotted keys, which `parseMemorySettings` accepts) and reports changes.
import { injectable } from 'inversify';
import * as vscode from 'vscode';
import { SETTINGS_SECTION, type SettingsSource } from '@graphiti-memory/memory-core';

/** Every setting the manifest declares under `graphitiMemory.` (package.json is the source of truth). */
export const SETTING_KEYS = [
  'enabled',
  'endpoint',
  'serverKind',
  'timeoutMs',
  'maxBatchSize',
  'maxQueueSize',
  'maxAttempts',
  'maxAgeHours',
  'maxMessageChars',
  'scopes',
  'groupIdStrategy',
  'includeGitMetadata',
  'includeSystemMessages',
  'autoPromote.enabled',
  'autoPromote.review',
  'recall.enabled',
  'recall.timeoutMs',
  'recall.maxFacts',
  'recall.scopes',
  'capture.vscodeChat',
  'capture.claudeCode',
  'capture.backfillTurns',
] as const;

@injectable()
export class VsCodeSettingsSource implements SettingsSource {
  read(): unknown {
    const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const values: Record<string, unknown> = {};
    for (const key of SETTING_KEYS) values[key] = configuration.get(key);
    return values;
  }

  onDidChange(listener: () => void): { dispose(): void } {
    return vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SETTINGS_SECTION)) listener();
    });
  }
}

/** Changes a setting where the user most likely means it: the workspace when one is open. */
export async function updateSetting(key: string, value: unknown): Promise<void> {
  const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration(SETTINGS_SECTION).update(key, value, target);
}
