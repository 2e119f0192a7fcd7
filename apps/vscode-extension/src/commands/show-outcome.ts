// How a command tells the user how it went: an information message when it worked, a warning when
// it did not. Not awaited: the command returns its result at once (tests and automation read it).
import * as vscode from 'vscode';

export interface CommandOutcome {
  readonly ok: boolean;
  readonly message: string;
}

/** Shows `outcome.message` as information or warning by `outcome.ok`; returns `outcome`. */
export function showOutcome<Outcome extends CommandOutcome>(outcome: Outcome): Outcome {
  void (outcome.ok ? vscode.window.showInformationMessage(outcome.message) : vscode.window.showWarningMessage(outcome.message));
  return outcome;
}
