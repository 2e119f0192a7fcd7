// One event for "what memory gave may no longer be used": a forget (scope, session, source), a
// revoked consent, memory disabled. The commands fire it; whatever keeps memory for later (each
// `@memory` chat's record of the facts it was given) listens and drops it, so no command reaches
// into the chat and every holder learns of every kind of withdrawal.
import { injectable } from 'inversify';
import * as vscode from 'vscode';

export type ForgetReason = 'forget' | 'revoke' | 'disable';

export interface ForgetEvent {
  readonly reason: ForgetReason;
  /** When it happened (ms since the epoch): what was given before it is withdrawn. */
  readonly at: number;
}

@injectable()
export class ForgetEvents implements vscode.Disposable {
  readonly #emitter = new vscode.EventEmitter<ForgetEvent>();

  /** Fires when memory given earlier is withdrawn. */
  readonly onDidForget: vscode.Event<ForgetEvent> = this.#emitter.event;

  fire(reason: ForgetReason): void {
    this.#emitter.fire({ reason, at: Date.now() });
  }

  dispose(): void {
    this.#emitter.dispose();
  }
}
