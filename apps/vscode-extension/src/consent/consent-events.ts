/** Tells listeners that consent was granted or revoked (MementoConsentStore implements it). */
export interface ConsentEvents {
  onDidChange(listener: () => void): { dispose(): void };
}
export const ConsentEvents = Symbol.for('graphiti-memory.vscode.ConsentEvents');
