// What the status item's quick pick offers in each state: the next step first, then the usual
// checks, in plain words with codicons (Copilot's and GitLens's status menus are the model). Pure:
// the state in, the items out, so each state's menu is tested without VS Code.
import type { MemoryState } from './status-presentation.js';

export interface StatusMenuInput {
  readonly state: MemoryState;
  readonly recallEnabled: boolean;
  /** Memories waiting for review. */
  readonly pending: number;
  /** Messages Graphiti refused or never stored (dead letters). */
  readonly deadLetters: number;
  /** Whether the Copilot agent or Claude Code hooks are installed. */
  readonly agentsConnected: boolean;
  /** Kinds of data switched on by a setting but not agreed to (sent only after consent). */
  readonly unconsentedCategories?: number;
}

export interface StatusMenuItem {
  /** `$(icon) Words`, as the quick pick shows it. */
  readonly label: string;
  readonly detail?: string;
  readonly command: string;
  readonly arguments?: readonly unknown[];
}

const SETTINGS_QUERY = '@ext:graphiti-memory.graphiti-memory';

export const MENU = {
  enable: { label: '$(check) Enable Here', detail: 'Turn memory on for this workspace (asks for consent first)', command: 'graphitiMemory.enable' },
  consent: { label: '$(verified) Give Consent', detail: 'Review what is sent, and to which server, then allow it', command: 'graphitiMemory.enable' },
  recallOn: { label: '$(lightbulb) Turn Recall On', detail: '@memory looks up what memory holds before answering', command: 'graphitiMemory.enableRecall' },
  test: { label: '$(plug) Test Connection', detail: 'Ask the Graphiti server whether it answers', command: 'graphitiMemory.testConnection' },
  settings: { label: '$(settings-gear) Open Settings', detail: 'Server, capture, recall and privacy settings', command: 'workbench.action.openSettings', arguments: [SETTINGS_QUERY] },
  sent: { label: '$(history) Show What Was Sent', detail: 'Every request that left this machine (no content)', command: 'graphitiMemory.showWhatWasSent' },
  pending: { label: '$(inbox) Review Pending Memories', command: 'graphitiMemory.episodes.focus' },
  retry: { label: '$(debug-restart) Retry Unsent Messages', command: 'graphitiMemory.retryDeadLetters' },
  connect: { label: '$(link) Connect Copilot Agent and Claude Code', detail: 'Give agent mode and Claude Code the same memory', command: 'graphitiMemory.connectAgents' },
  forget: { label: '$(trash) Forget Workspace Memory', detail: 'Delete what this workspace stored on the server', command: 'graphitiMemory.forgetWorkspace' },
  disable: { label: '$(circle-slash) Disable…', detail: 'Turn memory off here or everywhere', command: 'graphitiMemory.disable' },
  trust: { label: '$(shield) Manage Workspace Trust', detail: 'Memory stays off until you trust this workspace', command: 'workbench.trust.manage' },
  log: { label: '$(output) Open Log', detail: 'What happened, without any content', command: 'graphitiMemory.openLog' },
  details: { label: '$(info) Show Status Details', detail: 'Every setting in force and where it came from', command: 'graphitiMemory.showStatus' },
} as const satisfies Record<string, StatusMenuItem>;

/** The quick pick of the status item for `input`, the most likely next step first. */
export function statusMenuItems(input: StatusMenuInput): StatusMenuItem[] {
  const pending: StatusMenuItem[] =
    input.pending > 0 ? [{ ...MENU.pending, detail: `${input.pending} memor${input.pending === 1 ? 'y waits' : 'ies wait'} for your review` }] : [];
  const retry: StatusMenuItem[] =
    input.deadLetters > 0 ? [{ ...MENU.retry, detail: `${input.deadLetters} message(s) not stored; they are not sent again on their own` }] : [];
  const recall: StatusMenuItem[] = input.recallEnabled ? [] : [MENU.recallOn];
  const connect: StatusMenuItem[] = input.agentsConnected ? [] : [MENU.connect];
  const consent: StatusMenuItem[] = (input.unconsentedCategories ?? 0) > 0 ? [{ ...MENU.consent, detail: 'A setting asks to send more than you agreed to: review it' }] : [];
  switch (input.state) {
    case 'off':
      return [MENU.enable, MENU.settings, MENU.test, MENU.sent, MENU.details];
    case 'untrusted':
      return [MENU.trust, MENU.details];
    case 'invalid':
      return [MENU.settings, MENU.details, MENU.log];
    case 'needsConsent':
      return [MENU.consent, MENU.settings, MENU.disable, MENU.details];
    case 'revoked':
      return [MENU.consent, MENU.forget, MENU.sent, MENU.disable, MENU.details];
    case 'ok':
      return [...consent, ...pending, ...recall, ...retry, MENU.test, MENU.sent, ...connect, MENU.settings, MENU.disable, MENU.details];
    case 'failing':
    case 'notProcessing':
      return [MENU.test, ...retry, ...pending, MENU.log, MENU.settings, MENU.disable, MENU.details];
  }
}

/** What Show Status and `/status` offer first: the menu's item for the next step, named without its icon. */
export interface NextStep {
  readonly title: string;
  readonly command: string;
}

/** The one action Show Status and `/status` offer first for a state, if any: an item of `MENU`. */
export function nextStep(input: Pick<StatusMenuInput, 'state' | 'recallEnabled' | 'deadLetters'>): NextStep | undefined {
  const item = nextStepItem(input);
  return item === undefined ? undefined : { title: item.label.replace(/^\$\([^)]*\)\s*/, ''), command: item.command };
}

function nextStepItem(input: Pick<StatusMenuInput, 'state' | 'recallEnabled' | 'deadLetters'>): StatusMenuItem | undefined {
  switch (input.state) {
    case 'off':
      return MENU.enable;
    case 'needsConsent':
    case 'revoked':
      return MENU.consent;
    case 'ok':
      if (input.deadLetters > 0) return MENU.retry;
      return input.recallEnabled ? undefined : MENU.recallOn;
    case 'failing':
      return input.deadLetters > 0 ? MENU.retry : undefined;
    default:
      return undefined;
  }
}
