// Tokens of the extension's own services (memory-core's ports have theirs in memory-core).
import type * as vscode from 'vscode';

/** The `vscode.ExtensionContext` the extension was activated with. */
export const ExtensionContext = Symbol.for('graphiti-memory.vscode.ExtensionContext');

/** The "Graphiti Memory" log channel. */
export const LogChannel = Symbol.for('graphiti-memory.vscode.LogChannel');

/** One feature of the extension: registers its commands, views or listeners, cleans up on dispose. */
export interface Contribution {
  register(context: vscode.ExtensionContext): void;
}
export const Contribution = Symbol.for('graphiti-memory.vscode.Contribution');
