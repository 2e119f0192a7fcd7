// The one place that decides whether memory may touch the network. Ingestion, recall and
// promotion all ask it first; nothing is sent unless every condition holds at that moment.
import { inject, injectable } from 'inversify';
import { ConsentStore, WorkspaceContext } from '../ports.js';
import { normaliseEndpoint } from '../settings/endpoint.js';
import { consentCovers, type ConsentCategory } from './consent-categories.js';
import { MemoryConfiguration } from '../settings/memory-configuration.js';

/** Why the gate is closed, in the order the conditions are checked. */
export type GateClosedReason =
  | 'invalid-settings'
  | 'disabled'
  | 'no-endpoint'
  | 'untrusted'
  | 'no-consent'
  | 'consent-for-other-endpoint'
  /** Only when a category was asked about: consent exists, but not for that kind of data. */
  | 'category-not-consented';

export type GateDecision =
  | {
      readonly open: true;
      /** The normalised endpoint consent was given for. */
      readonly endpoint: string;
      /** Never set when open; declared so `decision.reason` reads on either variant. */
      readonly reason?: undefined;
    }
  | { readonly open: false; readonly reason: GateClosedReason };

export interface MemoryGate {
  /**
   * Decides now, from the current settings, trust and consent. Cheap; call it before every send.
   * With a `category`, also closed when the consent does not cover that kind of data.
   */
  evaluate(category?: ConsentCategory): GateDecision;
}
export const MemoryGate = Symbol.for('graphiti-memory.MemoryGate');

/**
 * Open only when the settings are valid, memory is enabled with an endpoint, the workspace is
 * trusted, and consent was recorded for exactly this (normalised) endpoint: changing the endpoint
 * needs consent again.
 */
@injectable()
export class DefaultMemoryGate implements MemoryGate {
  constructor(
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(WorkspaceContext) private readonly workspace: WorkspaceContext,
    @inject(ConsentStore) private readonly consent: ConsentStore,
  ) {}

  evaluate(category?: ConsentCategory): GateDecision {
    if (this.configuration.problems().length > 0) return closed('invalid-settings');
    const settings = this.configuration.current();
    if (!settings.enabled) return closed('disabled');
    const endpoint = settings.endpoint === '' ? undefined : normaliseEndpoint(settings.endpoint);
    if (endpoint === undefined) return closed('no-endpoint');
    if (!this.workspace.isTrusted()) return closed('untrusted');
    const record = this.consent.get();
    if (record === undefined) return closed('no-consent');
    if (normaliseEndpoint(record.endpoint) !== endpoint) return closed('consent-for-other-endpoint');
    if (category !== undefined && !consentCovers(record, category)) return closed('category-not-consented');
    return { open: true, endpoint };
  }
}

function closed(reason: GateClosedReason): GateDecision {
  return { open: false, reason };
}
