// Builds memory-core's IngestionService on durable storage in global storage (FileOutbox with its
// delivery ledger, shared with every other window and hook under the outbox's lock), falling back to in-memory storage with one log line when files fail.
import path from 'node:path';
import { Container } from 'inversify';
import {
  DeliveryLedger,
  InMemoryDeliveryLedger,
  InMemoryOutbox,
  IngestionService,
  Logger,
  MemoryConfiguration,
  IngestionQueuedGroups,
  Outbox,
  Clock,
} from '@graphiti-memory/memory-core';
import { FileOutbox } from '@graphiti-memory/memory-node-storage';
import type { PipelineFactory } from '../memory/deferred-ingestion.js';

export function createPipelineFactory(container: Container, storageFolder: string | undefined): PipelineFactory {
  return async () => {
    const logger = container.get<Logger>(Logger);
    const configuration = container.get<MemoryConfiguration>(MemoryConfiguration);
    let outbox: Outbox;
    let ledger: DeliveryLedger;
    try {
      if (storageFolder === undefined) throw new Error('no global storage folder');
      const directory = path.join(storageFolder, 'outbox');
      const fileOutbox = await FileOutbox.open({ directory, maxQueueSize: () => configuration.current().maxQueueSize, logger });
      ledger = fileOutbox.deliveryLedger;
      outbox = fileOutbox;
    } catch (error) {
      logger.warn('durable outbox unavailable; queued messages will not survive a reload', {
        errorClass: error instanceof Error ? error.name : 'unknown',
      });
      outbox = new InMemoryOutbox(configuration, container.get<Clock>(Clock));
      ledger = new InMemoryDeliveryLedger();
    }
    const child = new Container({ parent: container, defaultScope: 'Singleton' });
    child.bind(Outbox).toConstantValue(outbox);
    child.bind(DeliveryLedger).toConstantValue(ledger);
    child.bind(IngestionService).toSelf().inSingletonScope();
    const pipeline = child.get<IngestionService>(IngestionService);
    return {
      pipeline,
      // Forget takes queued messages of forgotten groups out of this pipeline (their keys stay in its ledger).
      queued: new IngestionQueuedGroups(pipeline),
      close: () => outbox.close(),
    };
  };
}
