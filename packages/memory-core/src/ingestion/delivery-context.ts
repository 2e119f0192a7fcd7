// What sending (MessageSender) and confirming (DeliveryConfirmer) both work with: the open outbox,
// the shared delivery state, tracker and bounds, and the host's services. Built once per opened
// storage by the IngestionService and handed to both.
import type { Clock, Logger, Outbox, TelemetrySink } from '../ports.js';
import type { MemoryConfiguration } from '../settings/index.js';
import type { EpisodeSources } from '../sources/episode-sources.js';
import type { DeliveryBounds } from './delivery-bounds.js';
import type { DeliveryState } from './delivery-state.js';
import type { DeliveryTracker } from './delivery-tracker.js';
import type { IngestionOptions } from './ingestion-options.js';
import type { LocalTier } from '../tier/local-tier.js';

/** What the sender and confirmer need from the service that runs them. */
export interface DeliveryHost {
  readonly disposed: boolean;
  readonly signal: AbortSignal;
  /** Nothing can be sent now, and why (shown in the stats). */
  block(reason: string): void;
}

export interface DeliveryContext {
  readonly outbox: Outbox;
  readonly state: DeliveryState;
  readonly tracker: DeliveryTracker;
  readonly bounds: DeliveryBounds;
  readonly configuration: MemoryConfiguration;
  readonly clock: Pick<Clock, 'now'>;
  readonly logger: Logger;
  readonly telemetry: TelemetrySink;
  readonly options: IngestionOptions;
  readonly host: DeliveryHost;
  /** The local record of delivered episodes: confirmation records each found episode's source there. */
  readonly episodeSources?: EpisodeSources;
  /** The local tier: confirmed session digests feed its "where we left off" bridge. */
  readonly tier?: Pick<LocalTier, 'recordDigests'>;
}
