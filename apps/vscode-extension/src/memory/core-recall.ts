// Recall = memory-core's RecallService (deadline, scopes, merging) behind the gate and the
// `recall.enabled` setting, with its outcome recorded for the status bar.
import { inject, injectable } from 'inversify';
import { MemoryConfiguration, MemoryGate, RecallService } from '@graphiti-memory/memory-core';
import { MemoryStatus } from '../status/memory-status.js';
import type { MemoryRecall, RecallOutcome, RecallOutcomeKind, RecallRequest } from './memory-services.js';

@injectable()
export class CoreRecall implements MemoryRecall {
  constructor(
    @inject(RecallService) private readonly service: RecallService,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(MemoryConfiguration) private readonly configuration: MemoryConfiguration,
    @inject(MemoryStatus) private readonly status: MemoryStatus,
  ) {}

  async recall(request: RecallRequest): Promise<RecallOutcome> {
    if (!this.gate.evaluate().open) return skipped('gate-closed');
    if (!this.configuration.current().recall.enabled) return skipped('recall-disabled');
    if (!this.gate.evaluate('recallQueries').open) return skipped('recall-not-consented');
    if (request.query.trim() === '') return skipped('empty-query');
    try {
      const result = await this.service.recall(request.query, {
        ...(request.sessionId === undefined ? {} : { sessionId: request.sessionId }),
        ...(request.scopes === undefined ? {} : { scopes: request.scopes }),
        ...(request.maxFacts === undefined ? {} : { maxFacts: request.maxFacts }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      const outcome: RecallOutcomeKind =
        result.facts.length > 0 ? 'hit' : result.timedOut ? 'timeout' : result.errors.length > 0 ? 'error' : 'miss';
      if (!request.signal?.aborted) this.status.recordRecall(result.timedOut ? 'timeout' : result.errors.length > 0 && result.facts.length === 0 ? 'error' : outcome);
      return { facts: result.facts, outcome, latencyMs: result.elapsedMs };
    } catch {
      // RecallService never rejects by contract; should it, chat still goes on without memory.
      this.status.recordRecall('error');
      return { facts: [], outcome: 'error', latencyMs: 0 };
    }
  }
}

function skipped(because: NonNullable<RecallOutcome['skippedBecause']>): RecallOutcome {
  return { facts: [], outcome: 'skipped', skippedBecause: because, latencyMs: 0 };
}
