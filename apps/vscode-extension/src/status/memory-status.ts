// One snapshot of how memory is doing, for the status bar, Show Status, /status and the welcome
// view: the gate, delivery (queue depth, failing, accepted-but-not-processed) and the last recall.
// Recomputed on events only (settings, consent, trust, delivery stats, recall outcomes): none of
// its inputs changes with time alone (ingestion decides "failing"/"not processing" in a pass and
// tells its stats listeners), so nothing polls.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import {
  ConsentStore,
  inertCategories,
  Ingestion,
  MemoryConfiguration,
  MemoryGate,
  type ConsentCategory,
  type GateDecision,
  type IngestionStats,
  type RecallOutcomeKind,
} from '@graphiti-memory/memory-core';
import { CATEGORY_LABEL } from '../consent/category-descriptions.js';
import { ConsentEvents } from '../consent/consent-events.js';
import type { MemoryState } from './status-presentation.js';

export type { MemoryState } from './status-presentation.js';

export interface StatusSnapshot {
  readonly state: MemoryState;
  readonly gate: GateDecision;
  readonly enabled: boolean;
  readonly endpoint: string;
  readonly queueDepth: number;
  /** Messages that will not be sent again on their own ("Retry Dead Letters"). */
  readonly deadLetters: number;
  readonly delivery: IngestionStats | undefined;
  readonly lastRecall: RecallOutcomeKind | undefined;
  readonly problems: readonly string[];
  /** Categories switched on by a setting but not agreed to: nothing of them is sent. */
  readonly inertCategories: readonly ConsentCategory[];
  /** One line for people: what is going on and what to do. */
  readonly summary: string;
}

@injectable()
export class MemoryStatus implements vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<StatusSnapshot>();
  readonly onDidChange = this.#changed.event;
  #lastRecall: RecallOutcomeKind | undefined;
  #last: string | undefined;
  readonly #subscriptions: { dispose(): void }[] = [];

  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(Ingestion) private readonly ingestion: Pick<Ingestion, 'stats' | 'onDidChangeStats'>,
    @inject(ConsentEvents) consentEvents: ConsentEvents,
    @inject(ConsentStore) private readonly consent: ConsentStore,
  ) {
    const refresh = () => this.refresh();
    this.#subscriptions.push(
      configuration.onDidChange(refresh),
      consentEvents.onDidChange(refresh),
      vscode.workspace.onDidGrantWorkspaceTrust(refresh),
      ingestion.onDidChangeStats(refresh),
    );
  }

  /** Recall outcomes count as health too: a hanging server shows as failing at the first timeout. */
  recordRecall(outcome: RecallOutcomeKind): void {
    if (outcome === 'skipped') return;
    this.#lastRecall = outcome;
    this.refresh();
  }

  snapshot(): StatusSnapshot {
    const gate = this.gate.evaluate();
    const settings = this.configuration.current();
    const problems = this.configuration.problems();
    const delivery = safeStats(this.ingestion);
    const state = stateOf(gate, delivery, this.#lastRecall);
    const queueDepth = delivery?.queueDepth ?? 0;
    const inert = gate.open ? inertCategories(this.consent.get(), settings) : [];
    const deadLetters = delivery?.deadLetters ?? 0;
    const summary = summaryOf(state, gate, settings.endpoint, queueDepth, delivery, problems);
    return {
      state,
      gate,
      enabled: settings.enabled,
      endpoint: settings.endpoint,
      queueDepth,
      deadLetters,
      delivery,
      lastRecall: this.#lastRecall,
      problems,
      inertCategories: inert,
      summary: [
        summary,
        ...(deadLetters > 0 ? [`${deadLetters} dead letter(s) will not be sent on their own: run "Graphiti Memory: Retry Dead Letters".`] : []),
        ...(inert.length > 0
          ? [`On but not sent, as you have not agreed to them: ${inert.map((category) => CATEGORY_LABEL[category]).join(', ')} (run "Graphiti Memory: Enable in This Workspace" to agree).`]
          : []),
      ].join(' '),
    };
  }

  /** Recomputes the snapshot and tells listeners when anything visible changed. */
  refresh(): StatusSnapshot {
    const snapshot = this.snapshot();
    const key = JSON.stringify([snapshot.state, snapshot.queueDepth, snapshot.summary]);
    if (key !== this.#last) {
      this.#last = key;
      this.#changed.fire(snapshot);
    }
    return snapshot;
  }

  dispose(): void {
    for (const subscription of this.#subscriptions.splice(0)) subscription.dispose();
    this.#changed.dispose();
  }
}

function safeStats(ingestion: Pick<Ingestion, 'stats'>): IngestionStats | undefined {
  try {
    return ingestion.stats();
  } catch {
    return undefined;
  }
}

function stateOf(gate: GateDecision, delivery: IngestionStats | undefined, lastRecall: RecallOutcomeKind | undefined): MemoryState {
  if (!gate.open) {
    switch (gate.reason) {
      case 'untrusted':
        return 'untrusted';
      case 'invalid-settings':
        return 'invalid';
      case 'no-consent':
      case 'consent-for-other-endpoint':
        return 'needsConsent';
      default:
        return 'off';
    }
  }
  if (delivery?.state === 'accepting-not-processing') return 'notProcessing';
  if (delivery?.state === 'failing' || lastRecall === 'timeout' || lastRecall === 'error') return 'failing';
  return 'ok';
}

function summaryOf(
  state: MemoryState,
  gate: GateDecision,
  endpoint: string,
  queueDepth: number,
  delivery: IngestionStats | undefined,
  problems: readonly string[],
): string {
  switch (state) {
    case 'off':
      return gate.open === false && gate.reason === 'no-endpoint'
        ? 'Memory is off: no endpoint is set (graphitiMemory.endpoint).'
        : 'Memory is off: nothing is sent. Run "Graphiti Memory: Enable in This Workspace" to turn it on.';
    case 'untrusted':
      return 'Memory is off in an untrusted workspace: nothing is sent or recalled.';
    case 'invalid':
      return `Memory is off because a setting or config file is invalid: ${problems.join('; ')}`;
    case 'needsConsent':
      return `Memory is enabled but waits for your consent to send to ${endpoint}.`;
    case 'ok':
      return `Memory is on (${endpoint}); ${queueDepth} message(s) waiting for delivery.`;
    case 'failing':
      return `Graphiti at ${endpoint} is failing (${delivery?.lastErrorClass ?? 'recall timed out or failed'}); chat goes on without memory and ${queueDepth} message(s) wait for delivery. Run "Graphiti Memory: Test Connection".`;
    case 'notProcessing':
      return `Graphiti at ${endpoint} accepts messages but does not process them (its worker may have stopped); restart the server. ${queueDepth} message(s) wait.`;
  }
}
