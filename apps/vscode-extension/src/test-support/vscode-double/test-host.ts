// The state behind the `vscode` test double, and the handles tests use to script and inspect it:
// settings, trust, folders, scripted answers to dialogs, and everything the extension registered.
// `resetTestHost()` runs before every test (install-vscode-double.ts), so tests never share state.
import type * as vscode from 'vscode';
import { EventEmitter } from './basics.js';

export type MessageSeverity = 'information' | 'warning' | 'error';

/** A notification or modal dialog the extension showed. */
export interface ShownMessage {
  readonly severity: MessageSeverity;
  readonly message: string;
  readonly modal: boolean;
  readonly detail: string | undefined;
  /** Titles of the buttons offered (modal dialogs add their own Cancel). */
  readonly items: readonly string[];
}

export interface ShownQuickPick {
  readonly items: readonly vscode.QuickPickItem[];
  readonly options: vscode.QuickPickOptions | undefined;
}

export interface ShownInputBox {
  readonly options: vscode.InputBoxOptions | undefined;
  /** What `validateInput` said about the scripted answer, when it complained. */
  readonly validationMessage?: string;
}

/** Answers to the next dialogs, consumed in order. No answer left: the user dismissed it. */
export interface ScriptedAnswers {
  /** Button title to click, or `undefined` to dismiss; a function picks from what was shown, maybe later. */
  messages: ((shown: ShownMessage) => string | undefined | Promise<string | undefined>)[];
  /** Label of the item to pick, or `undefined` to dismiss. */
  quickPicks: ((shown: ShownQuickPick) => string | undefined)[];
  /** Text to type, or `undefined` to press Escape. */
  inputBoxes: ((shown: ShownInputBox) => string | undefined)[];
}

export interface ActiveEditorDouble {
  readonly selectedText: string;
}

export interface TestHostState {
  /** Settings by full key (`graphitiMemory.endpoint`); missing keys read the manifest default. */
  readonly settings: Map<string, unknown>;
  /** Where `update` wrote a setting (`ConfigurationTarget`); absent: the user settings. One value per key. */
  readonly settingTargets: Map<string, number>;
  trusted: boolean;
  workspaceFolders: { uri: vscode.Uri; name: string; index: number }[] | undefined;
  workspaceName: string | undefined;
  activeEditor: ActiveEditorDouble | undefined;
  readonly answers: ScriptedAnswers;
  readonly shownMessages: ShownMessage[];
  readonly shownQuickPicks: ShownQuickPick[];
  readonly shownInputBoxes: ShownInputBox[];
  /** Every command executed through `vscode.commands.executeCommand`, with its arguments. */
  readonly executedCommands: { command: string; args: unknown[] }[];
  readonly commands: Map<string, (...args: unknown[]) => unknown>;
  /** Context keys set with `setContext`. */
  readonly contextKeys: Map<string, unknown>;
  readonly configurationChanged: EventEmitter<vscode.ConfigurationChangeEvent>;
  readonly trustGranted: EventEmitter<void>;
  readonly foldersChanged: EventEmitter<vscode.WorkspaceFoldersChangeEvent>;
}

function freshState(): TestHostState {
  return {
    settings: new Map(),
    settingTargets: new Map(),
    trusted: true,
    workspaceFolders: undefined,
    workspaceName: undefined,
    activeEditor: undefined,
    answers: { messages: [], quickPicks: [], inputBoxes: [] },
    shownMessages: [],
    shownQuickPicks: [],
    shownInputBoxes: [],
    executedCommands: [],
    commands: new Map(),
    contextKeys: new Map(),
    configurationChanged: new EventEmitter(),
    trustGranted: new EventEmitter(),
    foldersChanged: new EventEmitter(),
  };
}

let state = freshState();
const resetListeners = new Set<() => void>();

/** The current state of the double. */
export function testHost(): TestHostState {
  return state;
}

/** Forgets everything: settings, answers, registrations. Runs before each test. */
export function resetTestHost(): void {
  state = freshState();
  for (const listener of resetListeners) listener();
}

/** Lets other parts of the double drop their registries on reset. */
export function onTestHostReset(listener: () => void): void {
  resetListeners.add(listener);
}

/**
 * Changes settings as the Settings editor would: the values change, then one
 * `onDidChangeConfiguration` event names every changed key. `undefined` removes a value.
 */
export function updateSettings(values: Record<string, unknown>): void {
  const changed = Object.keys(values);
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) state.settings.delete(key);
    else state.settings.set(key, value);
    state.settingTargets.delete(key);
  }
  state.configurationChanged.fire({
    affectsConfiguration: (section: string) =>
      changed.some((key) => key === section || key.startsWith(`${section}.`) || section.startsWith(`${key}.`)),
  });
}

/** Sets settings before activation, without an event. */
export function presetSettings(values: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(values)) state.settings.set(key, value);
}

/** Trusts the workspace, firing `onDidGrantWorkspaceTrust`. */
export function grantWorkspaceTrust(): void {
  state.trusted = true;
  state.trustGranted.fire();
}

/** Scripts the next answers to modal or non-modal messages: a button title or `undefined`. */
export function answerMessages(
  ...answers: (string | undefined | ((shown: ShownMessage) => string | undefined | Promise<string | undefined>))[]
): void {
  state.answers.messages.push(...answers.map((answer) => (typeof answer === 'function' ? answer : () => answer)));
}

/** Scripts the next quick picks: the label to pick, or `undefined` to dismiss. */
export function answerQuickPicks(...answers: (string | undefined)[]): void {
  state.answers.quickPicks.push(...answers.map((answer) => () => answer));
}

/** Scripts the next input boxes: the text to enter, or `undefined` to press Escape. */
export function answerInputBoxes(...answers: (string | undefined)[]): void {
  state.answers.inputBoxes.push(...answers.map((answer) => () => answer));
}
