// Fakes of memory-core's ports for this package's tests (kept out of src/: never built or shipped). Each one is a real,
// small implementation with a few extra levers for tests (advance the clock, flip trust, inspect
// the events) — no mocks that only record calls.
import type { ConsentCategory } from '../src/gate/consent-categories.js';
import type {
  Clock,
  ConsentRecord,
  ConsentStore,
  GitMetadata,
  GraphitiApi,
  GraphitiConnection,
  KeyValueStore,
  LogFields,
  Logger,
  MemoryEvent,
  SettingsSource,
  TelemetrySink,
  WorkspaceContext,
} from '../src/ports.js';

/** Lets promise callbacks queued so far (and the ones they queue) run. */
export async function flushMicrotasks(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

interface Sleeper {
  readonly due: number;
  readonly resolve: () => void;
  readonly sequence: number;
}

/**
 * A clock that only moves when told to. `sleep` resolves when `advance` passes its due time, or
 * early when its signal aborts, as `Clock` promises.
 */
export class FakeClock implements Clock {
  private current: number;
  private sleepers: Sleeper[] = [];
  private sequence = 0;

  constructor(start: number | Date = Date.UTC(2026, 0, 2, 3, 4, 5)) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const sleeper: Sleeper = {
        due: this.current + Math.max(0, ms),
        sequence: this.sequence++,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.sleepers = this.sleepers.filter((candidate) => candidate !== sleeper);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(sleeper);
    });
  }

  /** Sleeps not yet resolved. */
  pendingSleeps(): number {
    return this.sleepers.length;
  }

  /**
   * Moves time forward by `ms`, waking sleepers in due order; between wake-ups the woken code
   * runs (microtasks flushed), so it can schedule further sleeps that fall within the window.
   */
  async advance(ms: number): Promise<void> {
    const target = this.current + Math.max(0, ms);
    for (;;) {
      const next = this.nextSleeper(target);
      if (!next) break;
      this.sleepers = this.sleepers.filter((candidate) => candidate !== next);
      this.current = Math.max(this.current, next.due);
      next.resolve();
      await flushMicrotasks();
    }
    this.current = target;
    await flushMicrotasks();
  }

  /** Sets the time without waking anyone (for wall-clock comparisons such as expiry). */
  setNow(time: number | Date): void {
    this.current = typeof time === 'number' ? time : time.getTime();
  }

  private nextSleeper(target: number): Sleeper | undefined {
    let best: Sleeper | undefined;
    for (const sleeper of this.sleepers) {
      if (sleeper.due > target) continue;
      if (!best || sleeper.due < best.due || (sleeper.due === best.due && sleeper.sequence < best.sequence)) {
        best = sleeper;
      }
    }
    return best;
  }
}

/** A `KeyValueStore` in a Map. Values are stored as JSON copies, as a real store would. */
export class InMemoryKeyValueStore implements KeyValueStore {
  private readonly values = new Map<string, string>();

  constructor(initial: Readonly<Record<string, unknown>> = {}) {
    for (const [key, value] of Object.entries(initial)) this.values.set(key, JSON.stringify(value));
  }

  get<T>(key: string): T | undefined {
    const stored = this.values.get(key);
    return stored === undefined ? undefined : (JSON.parse(stored) as T);
  }

  async set(key: string, value: unknown): Promise<void> {
    if (value === undefined) {
      this.values.delete(key);
      return;
    }
    this.values.set(key, JSON.stringify(value));
  }

  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }

  keys(): string[] {
    return [...this.values.keys()].sort();
  }
}

export interface FakeWorkspaceOptions {
  trusted?: boolean;
  folderUris?: readonly string[];
  gitRemote?: string;
  gitMetadata?: GitMetadata;
  accountId?: string;
}

/** A `WorkspaceContext` whose facts tests set directly (public mutable fields). */
export class FakeWorkspaceContext implements WorkspaceContext {
  trusted: boolean;
  folders: readonly string[];
  remote: string | undefined;
  git: GitMetadata | undefined;
  account: string | undefined;

  constructor(options: FakeWorkspaceOptions = {}) {
    this.trusted = options.trusted ?? true;
    this.folders = options.folderUris ?? ['file:///home/dev/project'];
    this.remote = options.gitRemote;
    this.git = options.gitMetadata;
    this.account = options.accountId;
  }

  isTrusted(): boolean {
    return this.trusted;
  }
  folderUris(): readonly string[] {
    return this.folders;
  }
  gitRemote(): string | undefined {
    return this.remote;
  }
  gitMetadata(): GitMetadata | undefined {
    return this.git;
  }
  accountId(): string | undefined {
    return this.account;
  }
}

/** A `ConsentStore` in memory. `grantedAt` comes from the given clock (or a fixed time). */
export class FakeConsentStore implements ConsentStore {
  private record: ConsentRecord | undefined;

  constructor(
    endpoint?: string,
    private readonly clock: Pick<Clock, 'now'> = { now: () => Date.UTC(2026, 0, 1) },
  ) {
    if (endpoint !== undefined) this.record = { endpoint, grantedAt: new Date(clock.now()).toISOString() };
  }

  get(): ConsentRecord | undefined {
    return this.record;
  }
  async grant(endpoint: string, categories?: readonly ConsentCategory[]): Promise<void> {
    this.record = { endpoint, grantedAt: new Date(this.clock.now()).toISOString(), ...(categories === undefined ? {} : { categories }) };
  }
  async revoke(): Promise<void> {
    this.record = undefined;
  }
}

/** A `TelemetrySink` that keeps every event, in order. */
export class RecordingTelemetry implements TelemetrySink {
  readonly events: MemoryEvent[] = [];

  emit(event: MemoryEvent): void {
    this.events.push(event);
  }

  /** The events of one type, narrowed. */
  ofType<T extends MemoryEvent['type']>(type: T): Extract<MemoryEvent, { type: T }>[] {
    return this.events.filter((event): event is Extract<MemoryEvent, { type: T }> => event.type === type);
  }

  clear(): void {
    this.events.length = 0;
  }
}

export interface RecordedLog {
  readonly level: 'debug' | 'info' | 'warn' | 'error';
  readonly message: string;
  readonly fields?: LogFields;
}

/** A `Logger` that keeps every line, so tests can prove nothing sensitive was logged. */
export class RecordingLogger implements Logger {
  readonly lines: RecordedLog[] = [];

  debug(message: string, fields?: LogFields): void {
    this.record('debug', message, fields);
  }
  info(message: string, fields?: LogFields): void {
    this.record('info', message, fields);
  }
  warn(message: string, fields?: LogFields): void {
    this.record('warn', message, fields);
  }
  error(message: string, fields?: LogFields): void {
    this.record('error', message, fields);
  }

  /** Everything logged, as one string: for "never contains X" assertions. */
  text(): string {
    return this.lines.map((line) => `${line.level} ${line.message} ${JSON.stringify(line.fields ?? {})}`).join('\n');
  }

  private record(level: RecordedLog['level'], message: string, fields: LogFields | undefined): void {
    this.lines.push(fields === undefined ? { level, message } : { level, message, fields });
  }
}

/** A `SettingsSource` over a value tests replace with `set`, which notifies listeners. */
export class FakeSettingsSource implements SettingsSource {
  private readonly listeners = new Set<() => void>();

  constructor(private value: unknown = {}) {}

  read(): unknown {
    return this.value;
  }

  set(value: unknown): void {
    this.value = value;
    for (const listener of [...this.listeners]) listener();
  }

  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  listenerCount(): number {
    return this.listeners.size;
  }
}

/** A `GraphitiConnection` that hands out one fixed client (or none). */
export class FixedGraphitiConnection implements GraphitiConnection {
  constructor(public client: GraphitiApi | undefined) {}

  current(): GraphitiApi | undefined {
    return this.client;
  }
}
