// Delivery follows the gate: when memory turns on (settings, consent, workspace trust) the outbox
// opens and delivery starts — also of what an earlier session left queued. While the gate is
// closed, the drain loop itself sends nothing (IngestionService checks the gate on every pass).
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { MemoryConfiguration, MemoryGate } from '@graphiti-memory/memory-core';
import { LazyIngestion, type Lazy } from '../composition/lazy.js';
import type { Contribution } from '../composition/tokens.js';
import { ConsentEvents } from '../consent/consent-events.js';
import type { MemoryIngestion } from './memory-services.js';

@injectable()
export class DeliveryContribution implements Contribution {
  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(ConsentEvents) private readonly consentEvents: ConsentEvents,
    @inject(LazyIngestion) private readonly ingestion: Lazy<MemoryIngestion>,
  ) {}

  register(context: vscode.ExtensionContext): void {
    const startWhenOpen = (): void => {
      if (this.gate.evaluate().open) this.ingestion.get().start();
    };
    context.subscriptions.push(
      this.configuration.onDidChange(startWhenOpen),
      this.consentEvents.onDidChange(startWhenOpen),
      vscode.workspace.onDidGrantWorkspaceTrust(startWhenOpen),
    );
    startWhenOpen();
  }
}
