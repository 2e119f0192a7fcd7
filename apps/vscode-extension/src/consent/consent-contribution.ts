// Enabling memory asks for consent: through the Enable command, or when `graphitiMemory.enabled`
// (or the endpoint) changes so that consent is missing. Revoke Consent closes the gate at once —
// for the agent hooks too: consent, `enabled` and trust are mirrored into the shared memory
// switches every hook reads (MemorySwitchRecorder), and turning one off stops the hook processes.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { ConsentStore, MemoryConfiguration, MemoryGate } from '@graphiti-memory/memory-core';
import { updateSetting } from '../adapters/vscode-settings-source.js';
import { showOutcome } from '../commands/show-outcome.js';
import type { Contribution } from '../composition/tokens.js';
import { ForgetEvents } from '../memory/forget-events.js';
import { ConsentEvents } from './consent-events.js';
import { ConsentFlow, type ConsentAnswer } from './consent-flow.js';
import { MemorySwitchRecorder } from './memory-switch-recorder.js';

const SECTION = 'graphitiMemory';
export const FORGET_STORED = 'Forget Workspace Memory…';

export interface EnableResult {
  readonly answer: ConsentAnswer;
  readonly enabled: boolean;
  readonly message: string;
}

@injectable()
export class ConsentContribution implements Contribution {
  constructor(
    @inject(ConsentFlow) private readonly flow: ConsentFlow,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(ConsentStore) private readonly consent: ConsentStore,
    @inject(ConsentEvents) private readonly consentEvents: ConsentEvents,
    @inject(MemorySwitchRecorder) private readonly switches: MemorySwitchRecorder,
    @inject(ForgetEvents) private readonly events: ForgetEvents,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      vscode.commands.registerCommand('graphitiMemory.enable', () => this.enable()),
      vscode.commands.registerCommand('graphitiMemory.revokeConsent', () => this.revoke()),
      this.configuration.onDidChange(() => void this.askWhenNeeded()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.askWhenNeeded()),
      this.consentEvents.onDidChange(() => void this.switches.consentChanged(this.consent.get() !== undefined).catch(() => undefined)),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(`${SECTION}.enabled`)) void this.#mirrorEnabled();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.switches.trustChanged(true).catch(() => undefined)),
    );
    // Settings may have changed while no window ran; the trust of this window is what it is now.
    void this.#mirrorEnabled();
    void this.switches.trustChanged(vscode.workspace.isTrusted).catch(() => undefined);
    // Enabled before this window started, without consent: ask once the window is up.
    setTimeout(() => void this.askWhenNeeded(), 0);
  }

  /** Asks when memory is on but consent for the endpoint, or for a category switched on, is missing. */
  async askWhenNeeded(): Promise<ConsentAnswer | undefined> {
    const decision = this.gate.evaluate();
    if (decision.open) return this.flow.missingCategories().length > 0 ? this.flow.askForCategories({ automatic: true }) : undefined;
    if (decision.reason !== 'no-consent' && decision.reason !== 'consent-for-other-endpoint') return undefined;
    return this.flow.ask({ automatic: true });
  }

  async enable(): Promise<EnableResult> {
    if (!vscode.workspace.isTrusted) {
      return this.#report('untrusted', false, 'Graphiti Memory stays off in an untrusted workspace: trust the workspace first.');
    }
    const problems = this.configuration.problems();
    if (problems.length > 0) {
      return this.#report('invalid-settings', false, `Graphiti Memory cannot be enabled: ${problems.join('; ')}`);
    }
    if (this.configuration.current().endpoint === '') {
      return this.#report('no-endpoint', false, 'Graphiti Memory needs an endpoint first: set graphitiMemory.endpoint.');
    }
    let answer = await this.flow.ask();
    // Already consented: Enable is also how the user agrees to categories declined before.
    if (answer === 'already-granted' && this.flow.missingCategories().length > 0) {
      answer = (await this.flow.askForCategories()) === 'granted' ? 'granted' : 'already-granted';
    }
    if (answer === 'granted' || answer === 'already-granted') {
      if (!this.configuration.current().enabled) await updateSetting('enabled', true);
      return this.#report(answer, true, `Graphiti Memory is on for this workspace, sending to ${this.configuration.current().endpoint}.`);
    }
    // Declining is the user's choice: said plainly, not as a warning.
    const message = 'Graphiti Memory stays off: nothing was sent.';
    void vscode.window.showInformationMessage(message);
    return { answer, enabled: this.configuration.current().enabled, message };
  }

  async revoke(): Promise<{ readonly ok: boolean; readonly message: string }> {
    const had = this.consent.get() !== undefined;
    await this.consent.revoke();
    // No chat keeps what memory gave it once consent is gone.
    this.events.fire('revoke');
    const message = had
      ? 'Graphiti Memory is off here: consent revoked, nothing more is sent from this workspace. What was stored stays on the server until you forget it.'
      : 'Graphiti Memory: this workspace had not given consent; nothing is sent.';
    // Offered, not pushed: forgetting after a revoke asks first and names the server it contacts.
    void Promise.resolve(had ? vscode.window.showInformationMessage(message, FORGET_STORED) : vscode.window.showInformationMessage(message)).then((choice) => {
      if (choice === FORGET_STORED) void vscode.commands.executeCommand('graphitiMemory.forgetWorkspace');
    });
    return { ok: true, message };
  }

  /** Written switches never block the window: a failure leaves the hooks as they were. */
  async #mirrorEnabled(): Promise<void> {
    const values = vscode.workspace.getConfiguration(SECTION).inspect<boolean>('enabled');
    await this.switches.enabledChanged(values ?? {}).catch(() => undefined);
  }

  #report(answer: ConsentAnswer, enabled: boolean, message: string): EnableResult {
    showOutcome({ ok: enabled, message });
    return { answer, enabled, message };
  }
}
