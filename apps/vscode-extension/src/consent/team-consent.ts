// The team scope's own consent: what a user promotes there is read by everyone who uses the same
// Graphiti server with the same repository, so it is asked for separately, in a modal that says so,
// when the team scope is first chosen (Promote to Memory) or added to `recall.scopes`. The answer is
// the user setting `graphitiMemory.team.consent`, which every tool reads the same way. Whether it was
// given is read from the configuration in force (VS Code settings, then the files every tool reads),
// so a consent in the user's config file counts here as it does for the hooks and the harness.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { MemoryConfiguration, TEAM_AUDIENCE, type MemorySettings } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';

export const SHARE_WITH_TEAM = 'Share with Team';
const SECTION = 'graphitiMemory';

export function teamConsentGiven(configuration: MemoryConfiguration): boolean {
  return configuration.current().team.consent;
}

/** Asks once (modal); `true` when the user agreed now or before. Declining changes nothing. */
export async function askTeamConsent(configuration: MemoryConfiguration): Promise<boolean> {
  if (teamConsentGiven(configuration)) return true;
  const answer = await vscode.window.showWarningMessage(
    'Share memories with your team?',
    {
      modal: true,
      detail:
        `What you promote to the team scope can be read by ${TEAM_AUDIENCE}. ` +
        'Only memories you promote (or approve) go there; captured chat never does. ' +
        'Set graphitiMemory.team.displayName to show your name with them.',
    },
    SHARE_WITH_TEAM,
  );
  if (answer !== SHARE_WITH_TEAM) return false;
  await vscode.workspace.getConfiguration(SECTION).update('team.consent', true, vscode.ConfigurationTarget.Global);
  return true;
}

/** Asks for the team consent when `team` joins `recall.scopes` (a setting or a config file) without it. */
@injectable()
export class TeamConsentContribution implements Contribution {
  constructor(@inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration) {}

  register(context: vscode.ExtensionContext): void {
    let recalledTeam = recallsTeam(this.configuration.current());
    context.subscriptions.push(
      this.configuration.onDidChange(() => {
        const recalls = recallsTeam(this.configuration.current());
        if (recalls && !recalledTeam && !teamConsentGiven(this.configuration)) void askTeamConsent(this.configuration);
        recalledTeam = recalls;
      }),
    );
  }
}

function recallsTeam(settings: MemorySettings): boolean {
  const scopes: unknown = settings.recall.scopes;
  return Array.isArray(scopes) && scopes.includes('team');
}
