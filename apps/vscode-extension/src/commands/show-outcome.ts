// How a command tells the user how it went: an information message when it worked, a warning when
// it did not. Not awaited: the command returns its result at once (tests and automation read it).
import * as vscode from 'vscode';

export interface CommandOutcome {
  readonly ok: boolean;
  readonly message: string;
  /** The user said no (Escape, Cancel): a choice, not a problem, so nothing is shown. */
  readonly cancelled?: boolean;
}

/** Shows `outcome.message` as information or warning by `outcome.ok` (nothing when cancelled); returns `outcome`. */
export function showOutcome<Outcome extends CommandOutcome>(outcome: Outcome): Outcome {
  if (outcome.cancelled === true) return outcome;
  void (outcome.ok ? vscode.window.showInformationMessage(outcome.message) : vscode.window.showWarningMessage(outcome.message));
  return outcome;
}
