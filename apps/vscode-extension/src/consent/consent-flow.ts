// Consent before anything leaves the machine: a modal that names the endpoint and exactly what
// will be sent (derived from the settings in force), stored per workspace for that endpoint.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { ConsentStore, MemoryConfiguration, type MemorySettings } from '@graphiti-memory/memory-core';
import { updateSetting } from '../adapters/vscode-settings-source.js';

export type ConsentAnswer = 'granted' | 'already-granted' | 'declined' | 'untrusted' | 'invalid-settings' | 'no-endpoint';

export const ALLOW = 'Allow';
export const TURN_OFF = 'Turn Memory Off';

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
  #inFlight: { readonly endpoint: string; readonly answer: Promise<ConsentAnswer> } | undefined;
  // Endpoints the user dismissed in this window: a setting change does not ask about them again
  // (no nagging); the Enable command always asks.
  readonly #dismissed = new Set<string>();

  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(ConsentStore) private readonly consent: ConsentStore,
  ) {}

  /** Whether consent for the configured endpoint exists. */
  hasConsent(): boolean {
    const endpoint = this.configuration.current().endpoint;
    return endpoint !== '' && this.consent.get()?.endpoint === endpoint;
  }

  /**
   * Asks for consent for the configured endpoint, one dialog at a time. A caller asking for the
   * endpoint already on screen shares that answer; when the endpoint changed meanwhile, the answer
   * to the old dialog only covers the old endpoint, so the new one is asked about after it.
   * Declining with "Turn Memory Off" also turns the setting off. `automatic` asks (after a setting
   * changed) skip an endpoint the user already dismissed in this window.
   */
  ask(options: { readonly automatic?: boolean } = {}): Promise<ConsentAnswer> {
    const endpoint = this.configuration.current().endpoint;
    const previous = this.#inFlight;
    if (previous !== undefined && previous.endpoint === endpoint) return previous.answer;
    const answer = (previous?.answer.catch(() => undefined) ?? Promise.resolve())
      .then(() => this.#ask(options.automatic === true))
      .finally(() => {
        if (this.#inFlight?.answer === answer) this.#inFlight = undefined;
      });
    this.#inFlight = { endpoint, answer };
    return answer;
  }

  async #ask(automatic: boolean): Promise<ConsentAnswer> {
    if (!vscode.workspace.isTrusted) return 'untrusted';
    if (this.configuration.problems().length > 0) return 'invalid-settings';
    const settings = this.configuration.current();
    const endpoint = settings.endpoint;
    if (endpoint === '') return 'no-endpoint';
    if (this.hasConsent()) return 'already-granted';
    if (automatic && this.#dismissed.has(endpoint)) return 'declined';
    const answer = await vscode.window.showWarningMessage(
      `Allow Graphiti Memory to send chat to ${endpoint}?`,
      {
        modal: true,
        detail: [
          `Graphiti Memory will send to the Graphiti server at ${endpoint}:`,
          ...describeWhatIsSent(settings),
          '',
          'Consent applies to this workspace and this endpoint only. Revoke it any time with "Graphiti Memory: Revoke Consent".',
        ].join('\n'),
      },
      ALLOW,
      TURN_OFF,
    );
    if (answer === ALLOW) {
      this.#dismissed.delete(endpoint);
      await this.consent.grant(endpoint);
      return 'granted';
    }
    this.#dismissed.add(endpoint);
    if (answer === TURN_OFF && settings.enabled) await updateSetting('enabled', false);
    return 'declined';
  }
}
