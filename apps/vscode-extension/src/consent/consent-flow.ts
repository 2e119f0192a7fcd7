// Consent before anything leaves the machine: a modal that names the endpoint and exactly what
// will be sent (derived from the settings in force), stored per workspace for that endpoint with
// the categories of data agreed to. Switching on a category later asks about that category alone.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import {
  categoriesInUse,
  ConsentStore,
  consentCovers,
  MemoryConfiguration,
  normaliseEndpoint,
  type ConsentCategory,
  type MemorySettings,
} from '@graphiti-memory/memory-core';
import { updateSetting } from '../adapters/vscode-settings-source.js';
import { CATEGORY_DETAIL, CATEGORY_LABEL } from './category-descriptions.js';

export type ConsentAnswer = 'granted' | 'already-granted' | 'declined' | 'untrusted' | 'invalid-settings' | 'no-endpoint';

/**
 * The default choice: memory that works — stored and recalled into answers (recall sends questions
 * as searches, so it is named in the dialog). Without recall a stored memory is never used.
 */
export const ALLOW = 'Allow';
/** Beside it: store, but never look anything up (recall stays off). */
export const STORE_ONLY = 'Store Only (No Recall)';
export const TURN_OFF = 'Turn Memory Off';
/** Declines a category: its setting stays on, nothing of it is sent. */
export const DONT_SEND = "Don't Send";

/** What is sent, one line each, for the settings in force. */
export function describeWhatIsSent(settings: MemorySettings): string[] {
  const sources = ['your messages and the answers of finished chat turns with @memory'];
  if (settings.capture.vscodeChat) sources.push('of every chat of this workspace (any participant, GitHub Copilot included)');
  if (settings.capture.claudeCode) sources.push("of Claude Code conversations in this workspace's folders");
  const lines = [`• The text of ${sources.join(', and ')}.`, '• Memories you promote (Promote to Memory, /remember, the remember tool).'];
  if (settings.recall.enabled) lines.push('• Your questions, as search queries, when @memory recalls facts.');
  if (settings.includeGitMetadata) lines.push('• The git branch, commit and dirty flag (never a path).');
  if (settings.includeSystemMessages) lines.push('• System prompt text, and one ownership note per memory group.');
  lines.push(
    settings.includeGitMetadata || settings.includeSystemMessages
      ? '• Nothing else: no file contents, paths or keys.'
      : '• Nothing else: no file contents, paths, git data, system prompts or keys.',
  );
  return lines;
}

@injectable()
export class ConsentFlow {
  #inFlight: { readonly key: string; readonly answer: Promise<ConsentAnswer> } | undefined;
  // Endpoints (and `endpoint category` pairs) the user dismissed in this window: a setting change
  // does not ask about them again (no nagging); the Enable command always asks.
  readonly #dismissed = new Set<string>();

  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(ConsentStore) private readonly consent: ConsentStore,
  ) {}

  /** Whether consent for the configured endpoint exists. */
  hasConsent(): boolean {
    const endpoint = this.configuration.current().endpoint;
    return endpoint !== '' && this.#recordForEndpoint() !== undefined;
  }

  /** The categories the settings switch on (plus `extra`) that the consent for the endpoint does not cover. */
  missingCategories(extra: readonly ConsentCategory[] = []): ConsentCategory[] {
    const record = this.#recordForEndpoint();
    const wanted = [...new Set([...categoriesInUse(this.configuration.current()), ...extra])];
    return record === undefined ? wanted : wanted.filter((category) => !consentCovers(record, category));
  }

  /**
   * Asks for consent for the configured endpoint, one dialog at a time. A caller asking for the
   * endpoint already on screen shares that answer; when the endpoint changed meanwhile, the answer
   * to the old dialog only covers the old endpoint, so the new one is asked about after it.
   * Declining with "Turn Memory Off" also turns the setting off. `automatic` asks (after a setting
   * changed) skip an endpoint the user already dismissed in this window.
   */
  ask(options: { readonly automatic?: boolean } = {}): Promise<ConsentAnswer> {
    return this.#serialised(this.configuration.current().endpoint, () => this.#ask(options.automatic === true, []));
  }

  /**
   * Asks about categories switched on since consent was given (or `extra` ones a feature is about to
   * use, such as `agentHooks`). Declining leaves their settings on but inert: the gate stays closed
   * for them. Without any consent for the endpoint, this is the full consent dialog.
   */
  askForCategories(options: { readonly automatic?: boolean; readonly extra?: readonly ConsentCategory[] } = {}): Promise<ConsentAnswer> {
    const extra = options.extra ?? [];
    const key = `${this.configuration.current().endpoint} ${this.missingCategories(extra).join(',')}`;
    return this.#serialised(key, () =>
      this.hasConsent() ? this.#askCategories(options.automatic === true, extra) : this.#ask(options.automatic === true, extra),
    );
  }

  #serialised(key: string, run: () => Promise<ConsentAnswer>): Promise<ConsentAnswer> {
    const previous = this.#inFlight;
    if (previous !== undefined && previous.key === key) return previous.answer;
    const answer = (previous?.answer.catch(() => undefined) ?? Promise.resolve()).then(run).finally(() => {
      if (this.#inFlight?.answer === answer) this.#inFlight = undefined;
    });
    this.#inFlight = { key, answer };
    return answer;
  }

  #recordForEndpoint() {
    const endpoint = normaliseEndpoint(this.configuration.current().endpoint);
    const record = this.consent.get();
    return endpoint !== undefined && record !== undefined && normaliseEndpoint(record.endpoint) === endpoint ? record : undefined;
  }

  #blocked(): ConsentAnswer | undefined {
    if (!vscode.workspace.isTrusted) return 'untrusted';
    if (this.configuration.problems().length > 0) return 'invalid-settings';
    if (this.configuration.current().endpoint === '') return 'no-endpoint';
    return undefined;
  }

  async #ask(automatic: boolean, extra: readonly ConsentCategory[]): Promise<ConsentAnswer> {
    const blocked = this.#blocked();
    if (blocked !== undefined) return blocked;
    if (this.hasConsent()) return 'already-granted';
    const settings = this.configuration.current();
    const endpoint = settings.endpoint;
    if (automatic && this.#dismissed.has(endpoint)) return 'declined';
    const recallOn = settings.recall.enabled;
    const answer = await vscode.window.showWarningMessage(
      `Allow Graphiti Memory to remember this workspace's chat in ${endpoint} and recall it into answers?`,
      {
        modal: true,
        detail: [
          `Graphiti Memory will send to the Graphiti server at ${endpoint}:`,
          ...describeWhatIsSent({ ...settings, recall: { ...settings.recall, enabled: true } }),
          ...(extra.includes('agentHooks') ? [`• ${capitalised(CATEGORY_DETAIL.agentHooks)}.`] : []),
          ...(recallOn
            ? []
            : ['', `"${ALLOW}" stores memory and recalls it: @memory looks up what memory holds before answering, sending your question as a search. "${STORE_ONLY}" stores memory without ever looking anything up (answers then do not use it; turn recall on later).`]),
          '',
          'Consent applies to this workspace and this endpoint only. Revoke it any time with "Graphiti Memory: Revoke Consent".',
        ].join('\n'),
      },
      ...(recallOn ? [ALLOW, TURN_OFF] : [ALLOW, STORE_ONLY, TURN_OFF]),
    );
    if (answer === ALLOW || answer === STORE_ONLY) {
      this.#dismissed.delete(endpoint);
      const recall = answer === ALLOW;
      await this.consent.grant(endpoint, [...categoriesInUse(settings), ...extra, ...(recall ? (['recallQueries'] as const) : [])]);
      if (recall && !recallOn) await updateSetting('recall.enabled', true);
      return 'granted';
    }
    this.#dismissed.add(endpoint);
    if (answer === TURN_OFF && settings.enabled) await updateSetting('enabled', false);
    return 'declined';
  }

  async #askCategories(automatic: boolean, extra: readonly ConsentCategory[]): Promise<ConsentAnswer> {
    const blocked = this.#blocked();
    if (blocked !== undefined) return blocked;
    const endpoint = this.configuration.current().endpoint;
    const missing = this.missingCategories(extra).filter((category) => !automatic || !this.#dismissed.has(`${endpoint} ${category}`));
    if (missing.length === 0) return this.missingCategories(extra).length === 0 ? 'already-granted' : 'declined';
    const answer = await vscode.window.showWarningMessage(
      `Allow Graphiti Memory to also send ${missing.map((category) => CATEGORY_LABEL[category]).join(', ')} to ${endpoint}?`,
      {
        modal: true,
        detail: [
          `A setting now asks Graphiti Memory to send more than you agreed to. It would also send to ${endpoint}:`,
          ...missing.map((category) => `• ${capitalised(CATEGORY_DETAIL[category])}.`),
          '',
          `"${DONT_SEND}" keeps the setting on but sends nothing of it (Show Status lists it); run "Graphiti Memory: Enable in This Workspace" to be asked again.`,
        ].join('\n'),
      },
      ALLOW,
      DONT_SEND,
    );
    const record = this.#recordForEndpoint();
    if (answer === ALLOW && record !== undefined) {
      for (const category of missing) this.#dismissed.delete(`${endpoint} ${category}`);
      await this.consent.grant(record.endpoint, [...(record.categories ?? []), ...missing]);
      return 'granted';
    }
    for (const category of missing) this.#dismissed.add(`${endpoint} ${category}`);
    return 'declined';
  }
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
