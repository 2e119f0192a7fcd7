// memory-core composed for one hook run: the endpoint, consent and user key of the shared config,
// the workspace of the event's cwd (its git remote names the workspace scope, as in the extension
// and the harness), and — for Stop, SessionEnd and the drainer — the durable outbox of the state
// folder. Nothing is checked over the network first: a hook must not wait for a health check.
import { createGraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import {
  AuditLog,
  auditedConnection,
  Clock,
  ConsentStore,
  createMemoryModule,
  GlobalStore,
  GraphitiConnection,
  GroupIdResolver,
  GroupRecorderOptions,
  GroupRegistry,
  Ingestion,
  IngestionOptions,
  IngestionStorage,
  Logger,
  openedIngestionStorage,
  RecallService,
  SecretGuard,
  SettingsSource,
  TelemetrySink,
  USER_KEY_STORAGE_KEY,
  WorkspaceContext,
  WorkspaceStore,
  type KeyValueStore,
  type MemoryEvent,
} from '@graphiti-memory/memory-core';
import { FileAuditLog, FileGroupRegistry, FileKeyValueStore, FileOutbox, stateLayout, type ResolvedMemoryConfig, type StateLayout } from '@graphiti-memory/memory-node-storage';
import { Container } from 'inversify';
import { readGitFacts } from '../composition/git-facts.js';
import { readGitRemoteCached } from './git-remote-cache.js';
import { StaticSettingsSource } from '../composition/static-settings-source.js';
import { adoptLeftoverJournals, OUTBOX_STALE_LOCK_MS } from '../composition/leftover-journals.js';

import { SystemClock } from '../composition/system-clock.js';
import { TerminalWorkspaceContext } from '../composition/terminal-workspace-context.js';

/** Messages staged by hooks are few; the bound only protects the state folder. */
const HOOK_MAX_QUEUE_SIZE = 100_000;
const USER_AGENT = 'graphiti-memory-hook';

export interface HookMemoryOptions {
  /** Normalised endpoint the user consented to. */
  readonly endpoint: string;
  readonly apiKey: string | undefined;
  readonly stateDirectory: string;
  readonly workspaceFolder: string;
  readonly userKey: string;
  readonly config: ResolvedMemoryConfig;
  /** Per-request timeout to Graphiti. */
  readonly requestTimeoutMs: number;
  /** Open the durable outbox and ledger (Stop, SessionEnd, the drainer). */
  readonly durable: boolean;
  readonly logger: Logger;
}

export interface HookMemory {
  /** Speaks the configured face (`server`: auto probes once per run, rest, mcp). */
  readonly client: GraphitiApi;
  readonly recall: RecallService;
  readonly groups: GroupIdResolver;
  readonly guard: SecretGuard;
  readonly layout: StateLayout;
  /** Only with `durable`. */
  readonly ingestion: Ingestion | undefined;
  readonly outbox: FileOutbox | undefined;
  close(): Promise<void>;
}

export async function openHookMemory(options: HookMemoryOptions): Promise<HookMemory> {
  const { config } = options;
  const client = createGraphitiClient({
    kind: config.server,
    baseUrl: options.endpoint,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    timeoutMs: options.requestTimeoutMs,
    maxRetries: options.durable ? 1 : 0,
    userAgent: USER_AGENT,
  });
  const layout = stateLayout(options.stateDirectory, options.workspaceFolder, options.endpoint);
  // Turns carry branch and commit (full facts); recall needs only the remote (cached).
  const git = options.durable ? await readGitFacts(options.workspaceFolder) : await readGitRemoteCached(options.workspaceFolder, options.stateDirectory);
  const consent = config.consent;

  const container = new Container();
  container.bind(SettingsSource).toConstantValue(new StaticSettingsSource(hookSettings(options)));
  container.bind(WorkspaceContext).toConstantValue(new TerminalWorkspaceContext(options.workspaceFolder, git));
  container.bind(GlobalStore).toConstantValue(new MapStore({ [USER_KEY_STORAGE_KEY]: options.userKey }));
  container.bind(ConsentStore).toConstantValue({
    get: () => (consent === undefined ? undefined : { endpoint: consent.endpoint, grantedAt: consent.grantedAt }),
    // Consent is given by `hooks install` (or the extension's Connect), never by a hook run.
    grant: async () => {},
    revoke: async () => {},
  } satisfies ConsentStore);
  // Runs that send (durable ones) record each request in the audit log and each written group in
  // the registry the harness and the extension share, so forget and "what was sent" cover hooks too.
  const audit = options.durable ? new FileAuditLog({ filePath: layout.auditLog, logger: options.logger }) : undefined;
  container.bind(GraphitiConnection).toConstantValue(
    audit === undefined ? { current: () => client } : auditedConnection({ current: () => client }, audit, { endpoint: options.endpoint }),
  );
  container.bind(Clock).toConstantValue(new SystemClock());
  container.bind(Logger).toConstantValue(options.logger);
  container.bind(TelemetrySink).toConstantValue({ emit: (_event: MemoryEvent) => {} });
  container.bind(IngestionOptions).toConstantValue({});

  const closers: Array<() => Promise<unknown>> = [];
  let outbox: FileOutbox | undefined;
  let workspaceStore: KeyValueStore = new MapStore({});
  if (options.durable) {
    const fileStore = await FileKeyValueStore.open(layout.workspaceStore, { logger: options.logger });
    workspaceStore = fileStore;
    outbox = await FileOutbox.open({ directory: layout.outboxDirectory, maxQueueSize: HOOK_MAX_QUEUE_SIZE, staleLockMs: OUTBOX_STALE_LOCK_MS, logger: options.logger });
    // The outbox's own ledger, as the harness uses it: checked and written under the outbox's lock.
    container.bind(IngestionStorage).toConstantValue(openedIngestionStorage(outbox, outbox.deliveryLedger));
    const registry = await FileGroupRegistry.open({ filePath: layout.groupRegistry, logger: options.logger });
    container.bind(GroupRegistry).toConstantValue(registry);
    container.bind(GroupRecorderOptions).toConstantValue({ tool: 'agent-hooks' });
    if (audit !== undefined) container.bind(AuditLog).toConstantValue(audit);
    const opened = outbox;
    closers.push(() => Promise.allSettled([opened.close(), fileStore.flush(), registry.flush(), audit?.flush()]));
  }
  container.bind(WorkspaceStore).toConstantValue(workspaceStore);
  container.loadSync(createMemoryModule());
  const ingestion = options.durable ? container.get<Ingestion>(Ingestion) : undefined;

  let closed: Promise<void> | undefined;
  return {
    client,
    recall: container.get<RecallService>(RecallService),
    groups: container.get<GroupIdResolver>(GroupIdResolver),
    guard: container.get<SecretGuard>(SecretGuard),
    layout,
    ingestion,
    outbox,
    close: () =>
      (closed ??= (async () => {
        await ingestion?.dispose();
        for (const close of closers) await close();
        await client.close();
      })()),
  };
}

/** Takes over journals left by hook runs that already returned (their locks are released). */
export async function adoptHookJournals(memory: HookMemory): Promise<void> {
  if (memory.outbox !== undefined) await adoptLeftoverJournals(memory.outbox, memory.layout.outboxDirectory);
}

/** memory-core's raw settings for a hook run: enabled (consent is checked by the gate). */
function hookSettings(options: HookMemoryOptions): Record<string, unknown> {
  const { config } = options;
  const scopes = config.scopes;
  const session = scopes === undefined || scopes.includes('session');
  const workspace = scopes === undefined || scopes.includes('workspace');
  return {
    enabled: true,
    endpoint: options.endpoint,
    timeoutMs: Math.min(120_000, Math.max(100, options.requestTimeoutMs)),
    maxQueueSize: HOOK_MAX_QUEUE_SIZE,
    scopes: session && workspace ? 'both' : session ? 'session' : workspace ? 'workspace' : 'both',
    groupIdStrategy: config.groupIdStrategy,
    includeGitMetadata: true,
    includeSystemMessages: false,
    autoPromote: { enabled: true },
    recall: { enabled: true, timeoutMs: config.recallTimeoutMs, maxFacts: config.maxFacts, scopes: 'all' },
  };
}

/** A KeyValueStore in memory (the user key for this run; the recall path's workspace store). */
class MapStore implements KeyValueStore {
  private readonly values: Map<string, unknown>;

  constructor(initial: Record<string, unknown>) {
    this.values = new Map(Object.entries(initial));
  }

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
