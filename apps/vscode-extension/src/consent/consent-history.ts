/** Whether the user revoked consent in this workspace (and has not consented since): "off", not a to-do. */
export interface ConsentHistory {
  revoked(): boolean;
}
export const ConsentHistory = Symbol.for('graphiti-memory.vscode.ConsentHistory');
