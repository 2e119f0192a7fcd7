// Delivery follows the gate: when memory turns on (settings, consent, workspace trust) delivery
// starts — its first pass opens the outbox, also for what an earlier session left queued — and when
// memory turns off it stops. Turns are still staged while off; the gate decides what is planned.
import { inject, injectable } from 'inversify';
import * as vscode from 'vscode';
import { Ingestion, MemoryConfiguration, MemoryGate } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';
import { ConsentEvents } from '../consent/consent-events.js';

@injectable()
export class DeliveryContribution implements Contribution {
  constructor(
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(ConsentEvents) private readonly consentEvents: ConsentEvents,
    @inject(Ingestion) private readonly ingestion: Ingestion,
  ) {}

  register(context: vscode.ExtensionContext): void {
    const followGate = (): void => {
      if (this.gate.evaluate().open) this.ingestion.start();
      else void this.ingestion.stop();
    };
    context.subscriptions.push(
      this.configuration.onDidChange(followGate),
      this.consentEvents.onDidChange(followGate),
      vscode.workspace.onDidGrantWorkspaceTrust(followGate),
    );
    followGate();
  }
}
