// Disable (this workspace / everywhere) and Turn Recall On: each writes the setting where it takes
// effect, and Disable also marks the shared memory switches at once, so the agent hooks stop too.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { MemoryConfiguration, SETTINGS_SECTION } from '@graphiti-memory/memory-core';
import { showOutcome } from '../commands/show-outcome.js';
import type { Contribution } from '../composition/tokens.js';
import { ForgetEvents } from '../memory/forget-events.js';
import { ConsentFlow } from './consent-flow.js';
import { MemorySwitchRecorder } from './memory-switch-recorder.js';

export type DisableTarget = 'workspace' | 'everywhere';

export const DISABLE_HERE = '$(folder) In This Workspace';
export const DISABLE_EVERYWHERE = '$(globe) Everywhere';

export interface DisableResult {
  readonly ok: boolean;
  readonly target: DisableTarget | undefined;
  readonly message: string;
}

export interface EnableRecallResult {
  readonly ok: boolean;
  /** Where `recall.enabled` was written; `undefined` when nothing was written (already on, or declined). */
  readonly target: 'workspace' | 'user' | undefined;
  readonly message: string;
}

type ValueTarget = 'globalValue' | 'workspaceValue' | 'workspaceFolderValue';

@injectable()
export class DisableCommands implements Contribution {
  constructor(
    @inject(MemorySwitchRecorder) private readonly switches: MemorySwitchRecorder,
    @inject(ForgetEvents) private readonly events: ForgetEvents,
    @inject(ConsentFlow) private readonly flow: ConsentFlow,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      vscode.commands.registerCommand('graphitiMemory.disable', (target?: unknown) => this.disable(target)),
      vscode.commands.registerCommand('graphitiMemory.enableRecall', () => this.enableRecall()),
    );
  }

  async disable(requested?: unknown): Promise<DisableResult> {
    const target = requested === 'workspace' || requested === 'everywhere' ? requested : await this.#askTarget();
    // Escape is a choice, not a problem: nothing to say.
    if (target === undefined) return { ok: false, target, message: 'Nothing was changed.' };
    const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const hasWorkspace = (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
    if (target === 'workspace' && hasWorkspace) {
      await configuration.update('enabled', false, vscode.ConfigurationTarget.Workspace);
    } else {
      await configuration.update('enabled', false, vscode.ConfigurationTarget.Global);
      // A workspace value of `true` would win over the user value: "everywhere" includes here.
      const values = configuration.inspect<boolean>('enabled');
      if (hasWorkspace && values?.workspaceValue === true) await configuration.update('enabled', undefined, vscode.ConfigurationTarget.Workspace);
    }
    // No chat keeps what memory gave it once memory is off.
    this.events.fire('disable');
    // The hooks read the switches: written now, not only when the settings event arrives.
    await this.switches.enabledChanged(vscode.workspace.getConfiguration(SETTINGS_SECTION).inspect<boolean>('enabled') ?? {}).catch(() => undefined);
    const where = target === 'workspace' && hasWorkspace ? 'in this workspace' : 'everywhere (every workspace, and the agent hooks)';
    return showOutcome({
      ok: true,
      target,
      message: `Graphiti Memory is off ${where}: nothing is sent or recalled. What was waiting stays on this machine, unsent, until you turn memory on again or forget it.`,
    });
  }

  /**
   * Turns recall on where `enabled` is set (this workspace, or the user settings). Asks at most once:
   * the consent to send questions as searches comes first (when memory has consent but not for
   * that), and the setting is written only once it is given — so the automatic ask that follows a
   * setting change finds nothing left to ask. Already on and agreed to: says so, asks nothing.
   */
  async enableRecall(): Promise<EnableRecallResult> {
    const consented = this.flow.hasConsent();
    if (this.configuration.current().recall.enabled && (!consented || this.flow.missingCategories(['recallQueries']).length === 0)) {
      return showOutcome({ ok: true, target: undefined, message: 'Graphiti Memory recall is already on: @memory looks up what memory holds before answering.' });
    }
    if (consented && this.flow.missingCategories(['recallQueries']).includes('recallQueries')) {
      const answer = await this.flow.askForCategories({ extra: ['recallQueries'] });
      if (answer !== 'granted' && answer !== 'already-granted') {
        return showOutcome({ ok: false, target: undefined, message: 'Graphiti Memory recall stays off: your questions are not sent as searches.' });
      }
    }
    const configuration = vscode.workspace.getConfiguration(SETTINGS_SECTION);
    const hasWorkspace = (vscode.workspace.workspaceFolders?.length ?? 0) > 0;
    const enabledAt = setAt(configuration.inspect<boolean>('enabled'));
    const recallAt = setAt(configuration.inspect<boolean>('recall.enabled'));
    // A workspace value decides here (of `enabled`, or of recall itself); otherwise the user settings.
    const workspace = hasWorkspace && (enabledAt === 'workspaceValue' || enabledAt === 'workspaceFolderValue' || recallAt === 'workspaceValue' || recallAt === 'workspaceFolderValue');
    if (!this.configuration.current().recall.enabled) {
      await configuration.update('recall.enabled', true, workspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
    }
    const target: EnableRecallResult['target'] = workspace ? 'workspace' : 'user';
    return showOutcome({
      ok: true,
      target,
      message: `Graphiti Memory recall is on ${workspace ? 'in this workspace' : 'in your user settings'}: @memory looks up what memory holds before answering (your question is sent as a search).`,
    });
  }

  async #askTarget(): Promise<DisableTarget | undefined> {
    const picked = await vscode.window.showQuickPick(
      [
        { label: DISABLE_HERE, detail: 'Nothing is sent or recalled from this workspace; other workspaces keep their setting', target: 'workspace' as const },
        { label: DISABLE_EVERYWHERE, detail: 'Nothing is sent or recalled from any workspace, nor by the connected agent hooks', target: 'everywhere' as const },
      ],
      { title: 'Graphiti Memory: Disable', placeHolder: 'Turn memory off where?' },
    );
    return picked?.target;
  }
}

/** The most specific place a setting has a value, if any. */
function setAt(values: { readonly globalValue?: unknown; readonly workspaceValue?: unknown; readonly workspaceFolderValue?: unknown } | undefined): ValueTarget | undefined {
  if (values?.workspaceFolderValue !== undefined) return 'workspaceFolderValue';
  if (values?.workspaceValue !== undefined) return 'workspaceValue';
  if (values?.globalValue !== undefined) return 'globalValue';
  return undefined;
}
