// While memory shows "can't reach Graphiti", ask the server's health with a bounded backoff, so
// the status returns to "on" as soon as it answers (not at the next chat turn): an answer clears
// the failed recall and ends delivery's backoff, whose stats then turn the status back. Only while
// the gate is open: no request at all when memory is off or has no consent.
import { inject, injectable } from 'inversify';
import type * as vscode from 'vscode';
import { GraphitiConnection, Ingestion, Logger, MemoryGate } from '@graphiti-memory/memory-core';
import type { Contribution } from '../composition/tokens.js';
import { MemoryStatus, type StatusSnapshot } from './memory-status.js';

export interface HealthProbeTiming {
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  readonly timeoutMs: number;
}
export const HealthProbeTiming = Symbol.for('graphiti-memory.vscode.HealthProbeTiming');
export const DEFAULT_HEALTH_PROBE_TIMING: HealthProbeTiming = { firstDelayMs: 2_000, maxDelayMs: 60_000, timeoutMs: 5_000 };

/** The delay before probe number `attempt` (0-based): doubling from the first, capped. */
export function probeDelay(timing: Pick<HealthProbeTiming, 'firstDelayMs' | 'maxDelayMs'>, attempt: number): number {
  return Math.min(timing.maxDelayMs, timing.firstDelayMs * 2 ** Math.min(attempt, 30));
}

@injectable()
export class HealthProbe implements Contribution, vscode.Disposable {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #attempt = 0;
  #running = false;
  #disposed = false;

  constructor(
    @inject(MemoryStatus) private readonly status: MemoryStatus,
    @inject(MemoryGate) private readonly gate: MemoryGate,
    @inject(GraphitiConnection) private readonly connection: GraphitiConnection,
    @inject(Ingestion) private readonly ingestion: Pick<Ingestion, 'retryNow'>,
    @inject(Logger) private readonly logger: Logger,
    @inject(HealthProbeTiming) private readonly timing: HealthProbeTiming,
  ) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(this.status.onDidChange((snapshot) => this.#follow(snapshot)), this);
    this.#follow(this.status.snapshot());
  }

  /** Probes made so far in this failing spell (tests). */
  get attempts(): number {
    return this.#attempt;
  }

  #follow(snapshot: StatusSnapshot): void {
    if (this.#disposed) return;
    if (snapshot.state === 'failing' && snapshot.gate.open) {
      if (this.#timer === undefined && !this.#running) this.#schedule();
      return;
    }
    this.#stop();
  }

  #schedule(): void {
    const delay = probeDelay(this.timing, this.#attempt);
    this.#timer = setTimeout(() => void this.#probe(), delay);
    // A pending probe never keeps the extension host alive on its own.
    this.#timer.unref?.();
  }

  async #probe(): Promise<void> {
    this.#timer = undefined;
    const api = this.connection.current();
    if (this.#disposed || !this.gate.evaluate().open || api === undefined) return;
    this.#running = true;
    this.#attempt += 1;
    let answered = false;
    try {
      await api.healthcheck({ timeoutMs: this.timing.timeoutMs, maxRetries: 0 });
      answered = true;
    } catch (error) {
      this.logger.debug('health probe: no answer', { attempt: this.#attempt, errorClass: error instanceof Error ? error.name : 'unknown' });
    } finally {
      this.#running = false;
    }
    if (this.#disposed) return;
    if (answered) {
      this.logger.info('health probe: Graphiti answers again', { attempts: this.#attempt });
      this.ingestion.retryNow();
      this.status.recordHealthy();
    }
    // Still failing (no answer, or delivery has not caught up yet): look again later.
    const now = this.status.snapshot();
    if (now.state === 'failing' && now.gate.open) this.#schedule();
    else this.#stop();
  }

  #stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#attempt = 0;
  }

  dispose(): void {
    this.#disposed = true;
    this.#stop();
  }
}
