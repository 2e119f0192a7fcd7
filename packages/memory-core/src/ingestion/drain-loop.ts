// The drain loop of ingestion: a pass, then sleep until the next thing is due (a poll, the end of
// a backoff) or something wakes it (messages admitted, dead letters retried). Started and stopped
// with the gate; a stop lets the pass under way finish.
import type { Clock } from '../ports.js';

export interface DrainLoopHost {
  /** One pass; a rejection is reported to `failed` and the loop goes on. */
  pass(): Promise<void>;
  /** Milliseconds until the next pass is due; `undefined`: only when woken. */
  nextDelay(): number | undefined;
  failed(error: unknown): void;
}

export class DrainLoop {
  #run: Promise<void> | undefined;
  /** Counts starts and stops: a loop runs while its generation is the current one. */
  #generation = 0;
  #running = false;
  #wakeController: AbortController | undefined;
  #wakeRequested = false;

  constructor(
    private readonly host: DrainLoopHost,
    private readonly clock: Pick<Clock, 'sleep'>,
  ) {}

  get running(): boolean {
    return this.#running;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    const generation = ++this.#generation;
    const previous = this.#run;
    // A loop stopped a moment ago may still finish its pass; passes never overlap (the host shares one).
    this.#run = this.#loop(generation).then(() => previous);
  }

  /** Resolves when the loop ended (after the pass under way). */
  async stop(): Promise<void> {
    this.#running = false;
    this.#generation++;
    this.wake();
    await this.#run;
  }

  wake(): void {
    this.#wakeRequested = true;
    this.#wakeController?.abort();
  }

  async #loop(generation: number): Promise<void> {
    const current = (): boolean => this.#generation === generation;
    while (current()) {
      try {
        await this.host.pass();
      } catch (error) {
        this.host.failed(error);
      }
      if (!current()) break;
      await this.#sleepUntilWoken(this.host.nextDelay());
    }
  }

  async #sleepUntilWoken(delay: number | undefined): Promise<void> {
    if (this.#wakeRequested) {
      this.#wakeRequested = false;
      return;
    }
    if (delay === 0) return;
    const controller = new AbortController();
    this.#wakeController = controller;
    try {
      if (delay === undefined) {
        await new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true }));
      } else {
        await this.clock.sleep(delay, controller.signal);
      }
    } finally {
      this.#wakeController = undefined;
      this.#wakeRequested = false;
    }
  }
}
