// The team scope's own consent: what a user promotes there is read by everyone who uses the same
// Graphiti server with the same repository, so it is asked for separately, in a modal that says so,
// when the team scope is first chosen (Promote to Memory) or added to `recall.scopes`. The answer is
// the user setting `graphitiMemory.team.consent`, which every tool reads the same way.
import { injectable } from 'inversify';
import * as vscode from 'vscode';
import { TEAM_AUDIENCE } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';

export const SHARE_WITH_TEAM = 'Share with Team';
const SECTION = 'graphitiMemory';

export function teamConsentGiven(): boolean {
  return vscode.workspace.getConfiguration(SECTION).get<boolean>('team.consent') === true;
}

/** Asks once (modal); `true` when the user agreed now or before. Declining changes nothing. */
export async function askTeamConsent(): Promise<boolean> {
  if (teamConsentGiven()) return true;
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

/** Asks for the team consent when `team` appears in `recall.scopes` without it. */
@injectable()
export class TeamConsentContribution implements Contribution {
  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(`${SECTION}.recall.scopes`)) return;
        const scopes = vscode.workspace.getConfiguration(SECTION).get<unknown>('recall.scopes');
        if (Array.isArray(scopes) && scopes.includes('team') && !teamConsentGiven()) void askTeamConsent();
      }),
    );
  }
}
