// The harness's composition root: one inversify container per command, binding memory-core's
// ports to the terminal (settings from the command line, the workspace folder and its git facts,
// file stores in the state folder, a durable outbox) and loading memory-core's services.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GraphitiApi } from '@graphiti-memory/graphiti-client';
import {
  AuditLog,
  auditedConnection,
  Clock,
  ConsentStore,
  createMemoryModule,
  errorClassOf,
  ForgetService,
  GlobalStore,
  GraphitiConnection,
  GroupIdResolver,
  GroupRecorderOptions,
  GroupRegistry,
  Ingestion,
  IngestionOptions,
  Logger,
  MemoryConfiguration,
  normaliseEndpoint,
  PendingMemoryStore,
  PromotionService,
  RecallService,
  ReviewQueue,
  SettingsSource,
  TelemetrySink,
  USER_KEY_STORAGE_KEY,
  WorkspaceContext,
  WorkspaceStore,
} from '@graphiti-memory/memory-core';
import {
  createNodeStorageModule,
  ensureUserKey,
  FileAuditLog,
  FileGroupRegistry,
  stateLayout,
  type StateLayout,
  FileOutbox,
  FilePendingMemoryStore,
  type FileKeyValueStore,
} from '@graphiti-memory/memory-node-storage';
import { Container } from 'inversify';
import type { CommandContext } from '../cli/command-runner.js';
import { HarnessError } from '../cli/harness-errors.js';
import { openGraphiti } from '../endpoint/open-graphiti.js';
import type { EmulatorSettings, ResolvedEndpoint } from '../endpoint/resolve-endpoint.js';
import { describeGraphitiFailure } from '../terminal/describe-error.js';
import { CountingTelemetry } from './counting-telemetry.js';
import { harnessLogger } from './debug-logger.js';
import { harnessSettings, HARNESS_MAX_QUEUE_SIZE } from './harness-settings.js';

import { adoptLeftoverJournals, OUTBOX_STALE_LOCK_MS, readGitFacts, StaticSettingsSource, SystemClock, TerminalWorkspaceContext } from '@graphiti-memory/agent-hooks';

/** Default of `--resend-after`: a real Graphiti takes seconds per message, more under load. */
export const DEFAULT_RESEND_AFTER_SECONDS = 300;

export interface HarnessMemoryOptions {
  /** Seconds a sent message may stay unconfirmed, with no progress on the server, before it is sent again. */
  readonly resendAfterSeconds?: number;
  /** Use a temporary state folder unless --state-dir was given (the demo; the in-process emulator). */
  readonly temporaryStateUnlessGiven?: boolean;
  readonly emulator?: EmulatorSettings;
  readonly autoPromote?: boolean;
  /** Hold promotions of directives for review (`pending`); default true, as the setting. */
  readonly review?: boolean;
  readonly maxFacts?: number;
  /** Check the endpoint with /healthcheck first, so an unreachable one fails fast with its URL. */
  readonly preflight?: boolean;
  /** A workspace folder other than --workspace (the demo uses a fresh one, so it touches no real group). */
  readonly workspaceFolder?: string;
}

/** memory-core, composed for one command; closed with the command (by `context.defer`). */
export interface HarnessMemory {
  readonly container: Container;
  readonly endpoint: ResolvedEndpoint;
  readonly client: GraphitiApi;
  readonly ingestion: Ingestion;
  /** The durable outbox of this endpoint (recovery report, dead letters). */
  readonly outbox: FileOutbox;
  readonly recall: RecallService;
  readonly promotion: PromotionService;
  readonly groups: GroupIdResolver;
  readonly forget: ForgetService;
  readonly review: ReviewQueue;
  readonly registry: GroupRegistry;
  readonly audit: AuditLog;
  readonly configuration: MemoryConfiguration;
  readonly telemetry: CountingTelemetry;
  readonly stateDirectory: string;
  readonly layout: StateLayout;
  readonly temporaryState: boolean;
  /** Stops ingestion (appending what was staged) and closes the stores; idempotent. */
  close(): Promise<void>;
}

export async function openHarnessMemory(context: CommandContext, options: HarnessMemoryOptions = {}): Promise<HarnessMemory> {
  const { terminal, options: common } = context;
  const { endpoint, client } = await openGraphiti(context, options.emulator ?? {});
  if (options.preflight !== false) await preflight(client, endpoint.url, common.timeoutMs, common.apiKey !== undefined);

  const temporaryState = !common.stateDirGiven && (options.temporaryStateUnlessGiven === true || endpoint.emulator !== undefined);
  const stateDirectory = temporaryState ? await fs.mkdtemp(path.join(os.tmpdir(), 'graphiti-harness-')) : common.stateDir;
  if (temporaryState) context.defer(() => fs.rm(stateDirectory, { recursive: true, force: true }));
  const normalisedEndpoint = normaliseEndpoint(endpoint.url) ?? endpoint.url;
  const workspaceFolder = options.workspaceFolder ?? common.workspace;
  const layout = stateLayout(stateDirectory, workspaceFolder, normalisedEndpoint);

  const logger = harnessLogger(terminal.env, terminal.stderr);
  const clock = new SystemClock();
  const telemetry = new CountingTelemetry();
  const settingsSource = new StaticSettingsSource(
    harnessSettings({
      endpoint: endpoint.url,
      options: common,
      ...(options.autoPromote === undefined ? {} : { autoPromote: options.autoPromote }),
      ...(options.review === undefined ? {} : { review: options.review }),
      ...(options.maxFacts === undefined ? {} : { maxFacts: options.maxFacts }),
    }),
  );
  const container = new Container();
  // The stores, the outbox and its delivery ledger (one ledger, checked under the outbox's lock, so
  // two runs never both send a message) come from memory-node-storage's module.
  container.loadSync(
    createNodeStorageModule({
      outbox: {
        directory: layout.outboxDirectory,
        maxQueueSize: HARNESS_MAX_QUEUE_SIZE,
        staleLockMs: OUTBOX_STALE_LOCK_MS,
        // Where earlier versions kept the ledger: imported once, so an upgrade sends nothing twice.
        legacyLedgerFile: layout.legacyLedgerFile,
      },
      globalStoreFile: layout.globalStore,
      workspaceStoreFile: layout.workspaceStore,
      logger,
    }),
  );
  const [git, globalStore, workspaceStore] = await Promise.all([
    readGitFacts(workspaceFolder),
    openOrExplain(() => container.getAsync<FileKeyValueStore>(GlobalStore), layout.globalStore),
    openOrExplain(() => container.getAsync<FileKeyValueStore>(WorkspaceStore), layout.workspaceStore),
  ]);
  await shareUserKey(globalStore, terminal.env, temporaryState, logger);
  const consent = await container.getAsync<ConsentStore>(ConsentStore);
  const outbox = await openOrExplain(() => container.getAsync(FileOutbox), layout.outboxDirectory);
  const registry = await openOrExplain(() => FileGroupRegistry.open({ filePath: layout.groupRegistry, logger }), layout.groupRegistry);
  const audit = new FileAuditLog({ filePath: layout.auditLog, logger });
  // Running the harness against an endpoint is the consent to send there: exactly that endpoint.
  if (consent.get()?.endpoint !== normalisedEndpoint) await consent.grant(normalisedEndpoint);

  container.bind(SettingsSource).toConstantValue(settingsSource);
  container.bind(WorkspaceContext).toConstantValue(new TerminalWorkspaceContext(workspaceFolder, git));
  // Every add-messages request is recorded in the audit log (metadata only).
  container.bind(GraphitiConnection).toConstantValue(auditedConnection({ current: () => client }, audit, { endpoint: endpoint.label }));
  container.bind(GroupRegistry).toConstantValue(registry);
  container.bind(PendingMemoryStore).toConstantValue(new FilePendingMemoryStore({ filePath: layout.pendingMemories, logger }));
  container.bind(AuditLog).toConstantValue(audit);
  container.bind(GroupRecorderOptions).toConstantValue({ tool: 'graphiti-harness' });
  container.bind(Clock).toConstantValue(clock);
  container.bind(Logger).toConstantValue(logger);
  container.bind(TelemetrySink).toConstantValue(telemetry);
  container.bind(IngestionOptions).toConstantValue({ resendAfterMs: (options.resendAfterSeconds ?? DEFAULT_RESEND_AFTER_SECONDS) * 1000 });
  container.loadSync(createMemoryModule());

  const configuration = container.get<MemoryConfiguration>(MemoryConfiguration);
  const problems = configuration.problems();
  if (problems.length > 0) {
    throw new HarnessError(`the harness's memory settings are invalid: ${problems.join('; ')}`, {
      hint: 'Check --timeout-ms and --scopes; this is otherwise a bug in the harness.',
    });
  }
  // Every asynchronously opened store is resolved above, so synchronous gets find them cached.
  const ingestion = container.get<Ingestion>(Ingestion);

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= (async () => {
      await ingestion.dispose();
      await Promise.allSettled([outbox.close(), globalStore.flush(), workspaceStore.flush(), registry.flush(), audit.flush()]);
    })());
  // Registered after the endpoint's cleanup, so it runs first: stores close while the server is up.
  context.defer(close);
  await adoptLeftoverJournals(outbox, layout.outboxDirectory);

  return {
    container,
    endpoint,
    client,
    ingestion,
    outbox,
    recall: container.get<RecallService>(RecallService),
    promotion: container.get<PromotionService>(PromotionService),
    groups: container.get<GroupIdResolver>(GroupIdResolver),
    forget: container.get(ForgetService),
    review: container.get(ReviewQueue),
    registry,
    audit,
    configuration,
    telemetry,
    stateDirectory,
    layout,
    temporaryState,
    close,
  };
}

async function preflight(client: GraphitiApi, url: string, timeoutMs: number, apiKeyGiven: boolean): Promise<void> {
  try {
    await client.healthcheck({ maxRetries: 0 });
  } catch (error) {
    throw describeGraphitiFailure(error, url, 'Reaching Graphiti', timeoutMs, { apiKeyGiven });
  }
}

async function openOrExplain<T>(open: () => Promise<T>, location: string): Promise<T> {
  try {
    return await open();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new HarnessError(`cannot open the harness state at ${location}${code === undefined ? '' : ` (${code})`}.`, {
      hint: 'Check that the folder is writable, or pass another --state-dir.',
      cause: error,
    });
  }
}

/**
 * The user scope's key comes from the user config, shared with the extension and agent hooks, so
 * the user scope is one group for every tool; a key this state folder used before is adopted into
 * it. Temporary state (the demo) keeps its own throw-away key.
 */
async function shareUserKey(
  globalStore: FileKeyValueStore,
  env: Readonly<Record<string, string | undefined>>,
  temporaryState: boolean,
  logger: Logger,
): Promise<void> {
  if (temporaryState) return;
  const previous = globalStore.get<unknown>(USER_KEY_STORAGE_KEY);
  try {
    const shared = await ensureUserKey(env, typeof previous === 'string' ? previous : undefined);
    if (shared !== previous) await globalStore.set(USER_KEY_STORAGE_KEY, shared);
  } catch (error) {
    logger.warn('user config unreadable; the state folder keeps its own user key', { errorClass: errorClassOf(error) });
  }
}
