// One snapshot of how memory is doing, for the status bar, Show Status, /status and the welcome
// view: the gate, delivery (queue depth, failing, accepted-but-not-processed), the last recall and
// whether recall is on. Recomputed on events only (settings, consent, trust, delivery stats, recall
// outcomes, a health probe that got an answer); the HealthProbe is what looks while it is failing.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import {
  ConsentStore,
  deliveryNotice,
  inertCategories,
  LONG_WAIT_MS,
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
import { ConsentHistory } from '../consent/consent-history.js';
import type { MemoryState } from './status-presentation.js';

export type { MemoryState } from './status-presentation.js';

export interface StatusSnapshot {
  readonly state: MemoryState;
  readonly gate: GateDecision;
  readonly enabled: boolean;
  /** `recall.enabled`: whether @memory looks facts up before answering. */
  readonly recallEnabled: boolean;
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
    @inject(ConsentHistory) private readonly history: ConsentHistory,
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

  /** Graphiti answered (a health probe, Test Connection): an earlier failed recall no longer says "failing". */
  recordHealthy(): void {
    if (this.#lastRecall !== 'timeout' && this.#lastRecall !== 'error') return;
    this.#lastRecall = undefined;
    this.refresh();
  }

  snapshot(): StatusSnapshot {
    const gate = this.gate.evaluate();
    const settings = this.configuration.current();
    const problems = this.configuration.problems();
    const delivery = safeStats(this.ingestion);
    const state = stateOf(gate, delivery, this.#lastRecall, this.history.revoked());
    const queueDepth = delivery?.queueDepth ?? 0;
    const inert = gate.open ? inertCategories(this.consent.get(), settings) : [];
    const deadLetters = delivery?.deadLetters ?? 0;
    // memory-core's words for dead letters and long waits, as `hooks status` and the hooks' footer say them.
    const now = Date.now();
    const oldest = delivery?.oldestQueuedAt;
    const waitingLong = oldest !== undefined && now - oldest > LONG_WAIT_MS ? queueDepth : 0;
    const notice = deliveryNotice({ deadLetters, waiting: waitingLong, ...(oldest === undefined ? {} : { oldestWaitingAt: oldest }), maxAgeHours: settings.maxAgeHours }, now, 'editor');
    const summary = summaryOf(state, gate, settings.endpoint, queueDepth, problems);
    const recallOff = settings.recall.enabled ? [] : [RECALL_OFF_SUMMARY];
    return {
      state,
      gate,
      enabled: settings.enabled,
      recallEnabled: settings.recall.enabled,
      endpoint: settings.endpoint,
      queueDepth,
      deadLetters,
      delivery,
      lastRecall: this.#lastRecall,
      problems,
      inertCategories: inert,
      summary: [
        summary,
        ...(state === 'ok' || state === 'failing' || state === 'notProcessing' ? recallOff : []),
        ...(notice.line === undefined ? [] : [notice.line]),
        ...(inert.length > 0
          ? [`Not sent until you agree to it: ${inert.map((category) => CATEGORY_LABEL[category]).join(', ')}. Choose "Give Consent" in the status menu.`]
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

/** Said wherever memory is on but recall is off (the default): stored memories are not used in answers. */
export const RECALL_OFF_SUMMARY = 'Recall is off: @memory answers without looking anything up in memory. Choose "Turn Recall On" to use what memory holds.';

function stateOf(gate: GateDecision, delivery: IngestionStats | undefined, lastRecall: RecallOutcomeKind | undefined, revoked: boolean): MemoryState {
  if (!gate.open) {
    switch (gate.reason) {
      case 'untrusted':
        return 'untrusted';
      case 'invalid-settings':
        return 'invalid';
      case 'no-consent':
        return revoked ? 'revoked' : 'needsConsent';
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

function summaryOf(state: MemoryState, gate: GateDecision, endpoint: string, queueDepth: number, problems: readonly string[]): string {
  const waiting = queueDepth > 0 ? ` ${queueDepth} message(s) wait and will be sent when it answers.` : '';
  switch (state) {
    case 'off':
      return gate.open === false && gate.reason === 'no-endpoint'
        ? 'Memory is off: no Graphiti server is set. Choose "Open Settings" and set the endpoint.'
        : 'Memory is off here: nothing is sent or recalled. Choose "Enable Here" (Graphiti Memory: Enable in This Workspace) to turn it on.';
    case 'untrusted':
      return 'Memory is off in an untrusted workspace: nothing is sent or recalled. Trust the workspace to use it.';
    case 'invalid':
      return `Memory is off because a setting or config file is invalid: ${problems.join('; ')}`;
    case 'needsConsent':
      return `Memory is turned on but waits for your consent before sending anything to ${endpoint}. Choose "Give Consent".`;
    case 'revoked':
      return `Memory is off here: you revoked consent, so nothing is sent to ${endpoint}. You can still forget what was stored. Choose "Give Consent" to turn it back on.`;
    case 'ok':
      return queueDepth > 0 ? `Memory is on (${endpoint}); ${queueDepth} message(s) are being sent.` : `Memory is on (${endpoint}).`;
    case 'failing':
      return `Memory cannot reach Graphiti at ${endpoint}: chat goes on without memory, and it checks again on its own.${waiting} Choose "Test Connection" to check now.`;
    case 'notProcessing':
      return `Graphiti at ${endpoint} accepts messages but does not store them (its worker may have stopped): restart the server.${waiting}`;
  }
}
