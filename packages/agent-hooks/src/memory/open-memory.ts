// The one Node composition of memory: every `graphiti-harness` command and every hook event open
// memory here, and the extension's runtime binds the same state files (`bindStateStores`). It
// binds every store from one state layout (outbox and ledger, group registry, pending memories,
// audit log, workspace store, the user key) and opens only what the caller needs: a read-only
// command or a recall opens no outbox, adopts no journals and writes nothing but its audit lines.
import type { GraphitiApi } from '@graphiti-memory/graphiti-client';
import {
  AuditLog,
  auditedConnection,
  Clock,
  ConsentStore,
  createMemoryModule,
  createRecallModule,
  EpisodeSources,
  ForgetLedger,
  ForgetService,
  GlobalStore,
  GraphitiConnection,
  GroupIdResolver,
  GroupRecorderOptions,
  GroupRegistry,
  Ingestion,
  IngestionOptions,
  LocalTier,
  Logger,
  MemoryConfiguration,
  MemoryEditing,
  MemoryPromotion,
  PendingMemoryStore,
  PromotionService,
  RecallService,
  ReviewQueue,
  SecretGuard,
  SettingsSource,
  SystemClock,
  TelemetrySink,
  USER_KEY_STORAGE_KEY,
  WorkspaceContext,
  WorkspaceFiles,
  WorkspaceStore,
  type KeyValueStore,
  type GraphitiApi as MemoryApi,
  type MemoryEvent,
  type MemorySettings,
} from '@graphiti-memory/memory-core';
import {
  assertStateFolderOurs,
  FileKeyValueStore,
  FileOutbox,
  makePrivateFolder,
  NodeWorkspaceFiles,
  stateLayout,
  tightenStateFolder,
  type StateLayout,
} from '@graphiti-memory/memory-node-storage';
import { Container, type ContainerModule } from 'inversify';
import type { GitFacts } from '../composition/git-facts.js';
import { adoptLeftoverJournals, OUTBOX_STALE_LOCK_MS } from '../composition/leftover-journals.js';
import { StaticSettingsSource } from '../composition/static-settings-source.js';
import { TerminalWorkspaceContext } from '../composition/terminal-workspace-context.js';
import { InMemoryKeyValueStore } from './in-memory-key-value-store.js';
import { createSharedStoresModule, createStateModules } from './state-module.js';

/** The tools that open memory, as the audit log and the group registry name them. */
export type MemoryTool = 'graphiti-harness' | 'agent-hooks' | 'vscode-extension';

/** Queue bound of the durable outbox: a transcript may hold thousands of messages. */
export const OUTBOX_MAX_QUEUE_SIZE = 100_000;

/** What the caller will use; nothing else is opened. */
export interface MemoryNeeds {
  /** The durable outbox, its delivery ledger and ingestion (capture, promotion, forget's dequeue). */
  readonly send?: boolean;
  /** Take over the journals that dead runs left in the outbox folder (with `send`). */
  readonly adoptJournals?: boolean;
}

export interface OpenMemoryOptions {
  readonly tool: MemoryTool;
  /** memory-core's raw settings (what a `SettingsSource` reads), made from the configuration. */
  readonly settings: MemorySettings;
  /** Speaks the configured face; closed by the caller. */
  readonly client: GraphitiApi;
  /** The normalised endpoint: it names the delivery state's folder. */
  readonly endpoint: string;
  /** How the audit log names the endpoint (default: `endpoint`). */
  readonly endpointLabel?: string;
  readonly stateDirectory: string;
  readonly workspaceFolder: string;
  readonly git: GitFacts;
  /** The user scope's key, the one every tool reads (memory-node-storage's `ensureUserKey`). */
  readonly userKey: string;
  /** Whether this run may send to the endpoint: the caller's policy (a command's own run, the hooks' consent). */
  readonly consent: ConsentStore;
  readonly logger: Logger;
  readonly telemetry?: TelemetrySink;
  readonly clock?: Clock;
  readonly ingestion?: Partial<IngestionOptions>;
  readonly needs: MemoryNeeds;
}

/** memory-core composed for one run; `close()` when done. */
export interface OpenedMemory {
  readonly container: Container;
  readonly layout: StateLayout;
  readonly client: GraphitiApi;
  /** `client` with every request that carries memory content or a query recorded in the audit log: read through this. */
  readonly api: MemoryApi;
  readonly configuration: MemoryConfiguration;
  readonly recall: RecallService;
  readonly groups: GroupIdResolver;
  readonly guard: SecretGuard;
  readonly audit: AuditLog;
  readonly pending: PendingMemoryStore;
  /** Only with `needs.send`. */
  readonly review: ReviewQueue | undefined;
  readonly ingestion: Ingestion | undefined;
  readonly outbox: FileOutbox | undefined;
  readonly promotion: PromotionService | undefined;
  /** Plans, queues and records a promotion in the local tier (what every tool's promote goes through). Only with `needs.send`. */
  readonly memoryPromotion: MemoryPromotion | undefined;
  readonly forget: ForgetService | undefined;
  /** Edits a curated memory (the new version promoted, the old episode forgotten). Only with `needs.send`. */
  readonly editing: MemoryEditing | undefined;
  readonly registry: GroupRegistry | undefined;
  /** The record of delivered episodes (citations; forgetting one episode). */
  readonly episodeSources: EpisodeSources;
  /** What forgets recorded at this endpoint (groups whose delete is owed, forgotten turns). */
  readonly forgotten: ForgetLedger;
  /** The local tier: the brief, and the cached answer when Graphiti does not answer. */
  readonly tier: LocalTier;
  /** Stops ingestion (appending what was staged) and closes the stores; idempotent. The client stays open. */
  close(): Promise<void>;
}

export async function openMemory(options: OpenMemoryOptions): Promise<OpenedMemory> {
  const { logger, needs } = options;
  const opened = await openContainer(options, (root) => [
    // The shared state folder's stores, bound as the extension binds them; the outbox only to send.
    ...createStateModules({
      stateDirectory: () => Promise.resolve(root),
      logger,
      ...(needs.send === true ? { outbox: { maxQueueSize: OUTBOX_MAX_QUEUE_SIZE, staleLockMs: OUTBOX_STALE_LOCK_MS } } : {}),
    }),
    // memory-core's services; the outbox's folder follows their settings (the endpoint).
    createMemoryModule(),
  ]);
  const { container, layout, closers } = opened;
  container.bind(IngestionOptions).toConstantValue(options.ingestion ?? {});
  // The tool the group registry records and sent messages' sources name: only sending reads it.
  container.bind(GroupRecorderOptions).toConstantValue({ tool: options.tool });

  let workspaceStore: KeyValueStore = new InMemoryKeyValueStore();
  let outbox: FileOutbox | undefined;
  let registry: GroupRegistry | undefined;
  if (needs.send === true) {
    const [fileStore, openedOutbox] = await Promise.all([FileKeyValueStore.open(layout.workspaceStore, { logger }), container.getAsync(FileOutbox)]);
    workspaceStore = fileStore;
    outbox = openedOutbox;
    const openedRegistry = container.get<GroupRegistry>(GroupRegistry);
    registry = openedRegistry;
    closers.push(() => fileStore.flush(), () => openedRegistry.flush());
  }
  container.bind(WorkspaceStore).toConstantValue(workspaceStore);

  // Every asynchronously opened store is resolved above, so synchronous gets find them cached.
  const ingestion = needs.send === true ? container.get<Ingestion>(Ingestion) : undefined;
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      // Every store is closed even when ingestion's last flush failed (a full or read-only disk):
      // an outbox left open keeps its journal locked while this process lives (a warm hook server).
      const disposed = await ingestion?.dispose().then(
        () => undefined,
        (error: unknown) => ({ error }),
      );
      await Promise.allSettled([outbox?.close(), ...closers.map((closer) => closer())]);
      if (disposed !== undefined) throw disposed.error;
    })());
  if (needs.send === true && needs.adoptJournals === true && outbox !== undefined) await adoptLeftoverJournals(outbox);

  return {
    ...recallMembers(opened, options.client),
    review: needs.send === true ? container.get<ReviewQueue>(ReviewQueue) : undefined,
    ingestion,
    outbox,
    promotion: needs.send === true ? container.get<PromotionService>(PromotionService) : undefined,
    memoryPromotion: needs.send === true ? container.get<MemoryPromotion>(MemoryPromotion) : undefined,
    forget: needs.send === true ? container.get(ForgetService) : undefined,
    editing: needs.send === true ? container.get<MemoryEditing>(MemoryEditing) : undefined,
    registry,
    close,
  };
}

/** `openMemory`'s options without what only sending uses. */
export type RecallMemoryOptions = Omit<OpenMemoryOptions, 'needs' | 'ingestion'>;

/**
 * Memory opened to recall only (a hook prompt): the same stores, ports and audited connection as
 * `openMemory` without `send`, but only memory-core's recall side (`createRecallModule`) and no
 * outbox module, so a bundle that opens memory only here (the runner's lean prompt core) leaves
 * ingestion, promotion, forget and the outbox's journals out. The send-side members are undefined.
 */
export async function openRecallMemory(options: RecallMemoryOptions): Promise<OpenedMemory> {
  const opened = await openContainer(options, (root) => [createSharedStoresModule({ stateDirectory: () => Promise.resolve(root), logger: options.logger }), createRecallModule()]);
  opened.container.bind(WorkspaceStore).toConstantValue(new InMemoryKeyValueStore());
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= Promise.allSettled(opened.closers.map((closer) => closer())).then(() => undefined));
  return { ...recallMembers(opened, options.client), review: undefined, ingestion: undefined, outbox: undefined, promotion: undefined, memoryPromotion: undefined, forget: undefined, editing: undefined, registry: undefined, close };
}

/** A container with the run's ports, the given modules and the audited connection bound. */
interface OpenedContainer {
  readonly container: Container;
  readonly layout: StateLayout;
  readonly audit: AuditLog;
  readonly episodeSources: EpisodeSources;
  /** What `close()` flushes; `openMemory` adds its send-side stores. */
  readonly closers: Array<() => Promise<unknown>>;
}

/** What `openMemory` and `openRecallMemory` share: one place binds a run's ports and the audited connection. */
async function openContainer(options: RecallMemoryOptions, modules: (stateRoot: string) => ContainerModule[]): Promise<OpenedContainer> {
  const { logger } = options;
  const layout = stateLayout(options.stateDirectory, options.workspaceFolder, options.endpoint);
  // Every harness command and hook that opens memory passes here: the state folder is ours (not
  // another user's, not a link) or memory does not open, and it is private.
  await assertStateFolderOurs(layout.root);
  await makePrivateFolder(layout.root).catch(() => undefined);
  await tightenStateFolder(layout.root);
  const container = new Container();
  container.bind(SettingsSource).toConstantValue(new StaticSettingsSource(options.settings));
  container.bind(WorkspaceContext).toConstantValue(new TerminalWorkspaceContext(options.workspaceFolder, options.git));
  // The stale check: paths recalled facts name, looked up (never read) in this workspace.
  container.bind(WorkspaceFiles).toConstantValue(new NodeWorkspaceFiles(() => [options.workspaceFolder]));
  container.bind(GlobalStore).toConstantValue(new InMemoryKeyValueStore({ [USER_KEY_STORAGE_KEY]: options.userKey }));
  container.bind(ConsentStore).toConstantValue(options.consent);
  container.bind(Clock).toConstantValue(options.clock ?? new SystemClock());
  container.bind(Logger).toConstantValue(logger);
  container.bind(TelemetrySink).toConstantValue(options.telemetry ?? { emit: (_event: MemoryEvent) => {} });
  container.loadSync(...modules(layout.root));
  const audit = container.get<AuditLog>(AuditLog);
  // Every request that carries memory content or a query is recorded in the shared audit log (metadata only).
  container.bind(GraphitiConnection).toConstantValue(auditedConnection({ current: () => options.client }, audit, { endpoint: options.endpointLabel ?? options.endpoint, tool: options.tool }));
  const episodeSources = container.get<EpisodeSources>(EpisodeSources);
  // What confirmation recorded of delivered episodes is written before the process ends.
  const tier = container.get<LocalTier>(LocalTier);
  // What confirmation recorded of delivered episodes, and the tier's background writes, are written before the process ends.
  return { container, layout, audit, episodeSources, closers: [() => audit.flush(), () => episodeSources.flush(), () => tier.flush()] };
}

/** The members every opened memory has, recall's side. */
function recallMembers({ container, layout, audit, episodeSources }: OpenedContainer, client: GraphitiApi) {
  return {
    container,
    layout,
    client,
    api: container.get<GraphitiConnection>(GraphitiConnection).current() ?? client,
    configuration: container.get<MemoryConfiguration>(MemoryConfiguration),
    recall: container.get<RecallService>(RecallService),
    groups: container.get<GroupIdResolver>(GroupIdResolver),
    guard: container.get<SecretGuard>(SecretGuard),
    audit,
    pending: container.get<PendingMemoryStore>(PendingMemoryStore),
    episodeSources,
    forgotten: container.get<ForgetLedger>(ForgetLedger),
    tier: container.get<LocalTier>(LocalTier),
  } satisfies Partial<OpenedMemory>;
}

