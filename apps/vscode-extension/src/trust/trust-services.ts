// Issue 13's services as the extension binds them: the registry of written groups, pending
// memories and the audit log (kept in global storage), every Graphiti API audited, forget dequeuing
// through the ingestion pipeline's outbox, and the review queue enqueuing through the lazy pipeline.
import { inject, injectable, type Container } from 'inversify';
import {
  type AuditLog,
  auditedConnection,
  Clock,
  type GraphitiConnection,
  MemoryConfiguration,
  PendingMemoryStore,
  PromotionService,
  QueuedGroups,
  ReviewQueue,
  type IngestionService,
} from '@graphiti-memory/memory-core';
import { LazyIngestion, type Lazy } from '../composition/lazy.js';
import type { MemoryIngestion } from '../memory/memory-services.js';

/** Forget's dequeue through the (lazily opened) ingestion pipeline's outbox. */
@injectable()
export class PipelineQueuedGroups implements QueuedGroups {
  constructor(@inject(LazyIngestion) private readonly ingestion: Lazy<MemoryIngestion>) {}

  dequeue(groupIds: readonly string[]): Promise<number> {
    return groupIds.length === 0 ? Promise.resolve(0) : this.ingestion.get().dequeue(groupIds);
  }
}

/** Rebinds memory-core's defaults that need the extension's pipeline; call after loading the modules. */
export function rebindTrustServices(container: Container): void {
  container.rebindSync(QueuedGroups).to(PipelineQueuedGroups).inSingletonScope();
  container
    .rebindSync(ReviewQueue)
    .toDynamicValue(({ get }) => {
      const ingestion = get<Lazy<MemoryIngestion>>(LazyIngestion);
      // ReviewQueue only enqueues approved entries: the lazy pipeline does that (staging until storage is open).
      const enqueue: Pick<IngestionService, 'enqueueEntries'> = { enqueueEntries: (entries) => ingestion.get().enqueueEntries(entries) };
      return new ReviewQueue(
        get<PromotionService>(PromotionService),
        get<PendingMemoryStore>(PendingMemoryStore),
        enqueue as IngestionService,
        get<MemoryConfiguration>(MemoryConfiguration),
        get<Clock>(Clock),
      );
    })
    .inSingletonScope();
}

/** The connection with every add-messages request recorded in the audit log (metadata only). */
export function auditConnection(connection: GraphitiConnection, log: AuditLog, configuration: MemoryConfiguration): GraphitiConnection {
  return auditedConnection(connection, log, {
    get endpoint() {
      return configuration.current().endpoint;
    },
  });
}
