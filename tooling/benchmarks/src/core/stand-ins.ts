// What the core benchmarks bind where an app binds its host: small, real implementations of
// memory-core's public ports and interfaces, nothing of memory-core's internals. (memory-core's own
// test doubles stay in that package: a package they lived in would depend on memory-core while
// memory-core's tests depend on it, a cycle turbo refuses.)
import {
  Clock,
  ConsentStore,
  createInMemoryStorageModule,
  createMemoryModule,
  DEFAULT_SETTINGS,
  GlobalStore,
  GraphitiConnection,
  Logger,
  SettingsSource,
  SystemClock,
  TelemetrySink,
  WorkspaceContext,
  WorkspaceStore,
  type ChatTurn,
  type ConsentRecord,
  type GateDecision,
  type GraphitiApi,
  type KeyValueStore,
  type MemoryConfiguration,
  type MemoryGate,
  type MemorySettings,
  type OutboxEntry,
  type TurnPlanner,
} from '@graphiti-memory/memory-core';
import { Container } from 'inversify';

/**
 * Maps a turn to its user and assistant messages for each scope's group, as the real planner does
 * minus the secret guard. The guard is left out on purpose: @secretlint/core records performance
 * marks per scan, so thousands of scans in one process slow down quadratically, which would be
 * measured as a chat-path cost that it is not (planning never runs inside `enqueue`).
 */
export class MessagesPerScopePlanner implements TurnPlanner {
  constructor(private readonly scopes: readonly ('session' | 'workspace')[]) {}

  async plan(turn: ChatTurn): Promise<readonly OutboxEntry[]> {
    const entries: OutboxEntry[] = [];
    for (const scope of this.scopes) {
      const groupId = scope === 'session' ? `bench-session-${turn.sessionId}` : 'bench-workspace';
      entries.push({
        groupId,
        message: { content: turn.user.text, role_type: 'user', role: null, name: `bench.turn.${turn.id}.user`, timestamp: turn.user.timestamp },
      });
      if (turn.assistant !== undefined) {
        entries.push({
          groupId,
          message: {
            content: turn.assistant.text,
            role_type: 'assistant',
            role: turn.participant ?? null,
            name: `bench.turn.${turn.id}.assistant`,
            timestamp: turn.assistant.timestamp,
          },
        });
      }
    }
    return entries;
  }
}

/** Settings fixed for the run: memory enabled, the rest as given. */
export class FixedConfiguration implements MemoryConfiguration {
  private readonly settings: MemorySettings;

  constructor(overrides: Partial<MemorySettings> = {}) {
    this.settings = { ...DEFAULT_SETTINGS, enabled: true, ...overrides };
  }
  current(): MemorySettings {
    return this.settings;
  }
  problems(): readonly string[] {
    return [];
  }
  onDidChange(): { dispose(): void } {
    return { dispose: () => undefined };
  }
}

/** A gate that is always open: the benchmarks measure delivery, not the gate. */
export class OpenGate implements MemoryGate {
  evaluate(): GateDecision {
    return { open: true, endpoint: 'http://127.0.0.1:8000' };
  }
}

/** The Graphiti connection, swapped during a run (none: Graphiti unreachable). */
export class SwitchableConnection implements GraphitiConnection {
  constructor(public client: GraphitiApi | undefined) {}
  current(): GraphitiApi | undefined {
    return this.client;
  }
}

/** Logs and events go nowhere: nothing of a benchmark's is read from them. */
export const silentLogger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
export const silentTelemetry: TelemetrySink = { emit: () => undefined };

class MapStore implements KeyValueStore {
  private readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async set(key: string, value: unknown): Promise<void> {
    this.values.set(key, value);
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key);
  }
}

export interface BenchMemoryOptions {
  /** Raw settings, as a host stores them. */
  readonly settings: unknown;
  /** The endpoint consent was given for. */
  readonly consentFor: string;
  readonly api: GraphitiApi;
  /** The signed-in account the user scope derives from. */
  readonly accountId: string;
}

/** memory-core composed as an app composes it: createMemoryModule() with the host's ports bound. */
export function benchMemory(options: BenchMemoryOptions): Container {
  const container = new Container();
  const consent: ConsentRecord = { endpoint: options.consentFor, grantedAt: new Date().toISOString() };
  const workspace: WorkspaceContext = {
    isTrusted: () => true,
    folderUris: () => ['file:///bench/project'],
    gitRemote: () => undefined,
    gitMetadata: () => undefined,
    accountId: () => options.accountId,
  };
  container.bind(SettingsSource).toConstantValue({ read: () => options.settings, onDidChange: () => ({ dispose: () => undefined }) });
  container.bind(WorkspaceContext).toConstantValue(workspace);
  container.bind(ConsentStore).toConstantValue({ get: () => consent, grant: async () => undefined, revoke: async () => undefined });
  container.bind(GlobalStore).toConstantValue(new MapStore());
  container.bind(WorkspaceStore).toConstantValue(new MapStore());
  container.bind(Clock).toConstantValue(new SystemClock());
  container.bind(Logger).toConstantValue(silentLogger);
  container.bind(TelemetrySink).toConstantValue(silentTelemetry);
  container.bind(GraphitiConnection).toConstantValue(new SwitchableConnection(options.api));
  container.loadSync(createMemoryModule(), createInMemoryStorageModule());
  return container;
}

/** Polls `condition` every 5 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`benchmark: waited ${timeoutMs} ms for ${what}; the run is broken, not slow`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
