// The walkthrough's steps tick on what really happened, through context keys the walkthrough's
// `completionEvents` read: an endpoint set (by the user, or one a test reached), a successful
// Test Connection (never a failed one), a first memory stored, a first recall that found something.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { MemoryConfiguration, SettingsSource } from '@graphiti-memory/memory-core';
import { VsCodeSettingsSource, type EffectiveSettings } from '../adapters/vscode-settings-source.js';
import type { Contribution } from '../composition/tokens.js';

export const WALKTHROUGH_CONTEXT = {
  endpointSet: 'graphitiMemory.endpointSet',
  connectionTested: 'graphitiMemory.connectionTested',
  memoryStored: 'graphitiMemory.memoryStored',
  recalledMemory: 'graphitiMemory.recalledMemory',
} as const;

export type WalkthroughStep = keyof typeof WALKTHROUGH_CONTEXT;

/** Ticks `step` (VS Code keeps a completed step completed, across windows). */
export function markStep(step: WalkthroughStep): void {
  void vscode.commands.executeCommand('setContext', WALKTHROUGH_CONTEXT[step], true);
}

/** Ticks "endpoint set" when the endpoint in force is one the user set (VS Code, a config file, a variable), not the default. */
@injectable()
export class WalkthroughProgress implements Contribution {
  constructor(
    @inject(SettingsSource) private readonly settings: SettingsSource,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
  ) {}

  register(context: vscode.ExtensionContext): void {
    const check = () => {
      if (this.settings instanceof VsCodeSettingsSource && endpointSetByUser(this.settings.effective())) markStep('endpointSet');
    };
    check();
    context.subscriptions.push(this.configuration.onDidChange(check));
  }
}

export function endpointSetByUser(effective: EffectiveSettings): boolean {
  const endpoint = effective.settings.find((setting) => setting.key === 'endpoint');
  return endpoint !== undefined && endpoint.origin !== 'default' && typeof endpoint.value === 'string' && endpoint.value !== '';
}
