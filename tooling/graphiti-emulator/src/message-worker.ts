// Upstream's single in-process queue and worker: one job per message, processed in order. Any
// exception ends the worker silently; jobs keep queueing and are never processed until a restart.

export class MessageWorker<Job> {
  private readonly queue: Job[] = [];
  private inFlight = false;
  private timer: NodeJS.Timeout | undefined;
  private deathReason: string | null = null;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly processingDelayMs: number,
    private readonly handle: (job: Job) => void,
  ) {}

  enqueue(job: Job): void {
    this.queue.push(job);
    this.pump();
  }

  /** Waiting jobs plus the one being processed. */
  get length(): number {
    return this.queue.length + (this.inFlight ? 1 : 0);
  }

  get alive(): boolean {
    return this.deathReason === null;
  }

  get error(): string | null {
    return this.deathReason;
  }

  /** The worker dies: the job in progress is lost, queued ones stay queued forever. */
  kill(reason: string): void {
    if (this.deathReason !== null) return;
    this.deathReason = reason;
    this.cancelInFlight();
    this.notifyIfIdle();
  }

  /** A process restart: the queue is lost and a fresh worker starts. */
  restart(): void {
    this.cancelInFlight();
    this.queue.length = 0;
    this.deathReason = null;
    this.notifyIfIdle();
  }

  /** Shuts down for good (the emulator is closing). */
  stop(): void {
    this.kill('the emulator was closed');
  }

  /** Resolves once nothing more will happen: the queue is empty or the worker is dead. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    return this.deathReason !== null || this.length === 0;
  }

  private cancelInFlight(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.inFlight = false;
  }

  private pump(): void {
    if (this.inFlight || this.deathReason !== null) return;
    const job = this.queue.shift();
    if (job === undefined) {
      this.notifyIfIdle();
      return;
    }
    this.inFlight = true;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.inFlight = false;
      try {
        this.handle(job);
      } catch (error) {
        this.kill(error instanceof Error ? error.message : String(error));
        return;
      }
      this.pump();
    }, this.processingDelayMs);
  }

  private notifyIfIdle(): void {
    if (!this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
