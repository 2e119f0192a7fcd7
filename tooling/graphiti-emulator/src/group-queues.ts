// The MCP server's QueueService: one queue and one worker per group, so groups do not wait on each
// other while episodes of one group are processed in order. Unlike the REST worker, a failed
// episode is logged and the queue goes on; only `kill()` (the fault switch) stops processing.
import { MessageWorker } from './message-worker.js';

export class GroupQueues<Job> {
  private readonly workers = new Map<string, MessageWorker<Job>>();
  private deathReason: string | null = null;
  private failures: string[] = [];

  constructor(
    private readonly processingDelayMs: number,
    private readonly handle: (job: Job) => void,
  ) {}

  enqueue(groupId: string, job: Job): void {
    let worker = this.workers.get(groupId);
    if (worker === undefined) {
      worker = new MessageWorker<Job>(this.processingDelayMs, (queued) => {
        try {
          this.handle(queued);
        } catch (error) {
          // Upstream logs "Error processing episode" and takes the next one.
          this.failures.push(error instanceof Error ? error.message : String(error));
        }
      });
      if (this.deathReason !== null) worker.kill(this.deathReason);
      this.workers.set(groupId, worker);
    }
    worker.enqueue(job);
  }

  get length(): number {
    let total = 0;
    for (const worker of this.workers.values()) total += worker.length;
    return total;
  }

  get alive(): boolean {
    return this.deathReason === null;
  }

  get error(): string | null {
    return this.deathReason;
  }

  /** Episodes that failed and were skipped (for test diagnostics). */
  get failed(): readonly string[] {
    return this.failures;
  }

  /** Every worker stops: queued and later episodes are accepted but never processed. */
  kill(reason: string): void {
    if (this.deathReason !== null) return;
    this.deathReason = reason;
    for (const worker of this.workers.values()) worker.kill(reason);
  }

  /** A process restart: every queue is lost and processing resumes. */
  restart(): void {
    for (const worker of this.workers.values()) worker.stop();
    this.workers.clear();
    this.deathReason = null;
    this.failures = [];
  }

  stop(): void {
    this.kill('the emulator was closed');
  }

  async idle(): Promise<void> {
    await Promise.all([...this.workers.values()].map((worker) => worker.idle()));
  }
}
