// The harness's memory: each command opens it through agent-hooks' `openMemory`, the composition
// every tool shares (the same state files as the extension and the hooks), with settings from the
// command line and the configuration, the workspace folder and its git facts, and only what the
// command needs (a read-only command opens no outbox).
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { openMemory, readGitFacts, recordDrainEnd, type MemoryNeeds, type OpenedMemory, type RememberedFace } from '@graphiti-memory/agent-hooks';
import type { GraphitiApi } from '@graphiti-memory/graphiti-client';
import {
  errorClassOf,
  normaliseEndpoint,
  USER_KEY_STORAGE_KEY,
  type CaptureGranularity,
  type ConsentStore,
  type ForgetService,
  type Ingestion,
  type Logger,
  type MemoryEditing,
  type MemoryPromotion,
  type PromotionService,
  type ReviewQueue,
} from '@graphiti-memory/memory-core';
import { ensureUserKey, FileKeyValueStore, sharedStateFiles, type FileOutbox } from '@graphiti-memory/memory-node-storage';
import type { CommandContext } from '../cli/command-runner.js';
import { HarnessError } from '../cli/harness-errors.js';
import { openGraphiti } from '../endpoint/open-graphiti.js';
import type { EmulatorSettings, ResolvedEndpoint } from '../endpoint/resolve-endpoint.js';
import { describeGraphitiFailure } from '../terminal/describe-error.js';
import { watchWriteRefusals, type WriteRefusal } from '../delivery/write-refusals.js';
import { CountingTelemetry } from './counting-telemetry.js';
import { harnessLogger } from './debug-logger.js';
import { harnessSettings } from './harness-settings.js';

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
  /** `capture.granularity` for this run (`ingest --granularity`); default: the configuration's. */
  readonly granularity?: CaptureGranularity;
  /**
   * Check the endpoint with /healthcheck first, so an unreachable one fails fast with its URL
   * (and an unknown face is probed). `soft`: a failure is kept in `preflightFailure` instead of
   * thrown, for a command that can still answer without Graphiti (recall, from the local tier).
   */
  readonly preflight?: boolean | 'soft';
  /** A workspace folder other than --workspace (the demo uses a fresh one, so it touches no real group). */
  readonly workspaceFolder?: string;
  /** What the command uses (default: sending, with the journals of dead runs adopted). */
  readonly needs?: MemoryNeeds;
}

/** memory-core, composed for one command; closed with the command (by `context.defer`). */
export interface HarnessMemory extends Omit<OpenedMemory, 'ingestion' | 'outbox' | 'promotion' | 'memoryPromotion' | 'forget' | 'editing' | 'review'> {
  readonly endpoint: ResolvedEndpoint;
  readonly client: GraphitiApi;
  readonly telemetry: CountingTelemetry;
  readonly stateDirectory: string;
  readonly temporaryState: boolean;
  /** The durable outbox of this endpoint and what uses it: `needs.send` only (the default). */
  readonly ingestion: Ingestion;
  readonly outbox: FileOutbox;
  readonly promotion: PromotionService;
  readonly memoryPromotion: MemoryPromotion;
  readonly forget: ForgetService;
  /** Edits a curated memory: the new version promoted, the old episode forgotten. */
  readonly editing: MemoryEditing;
  readonly review: ReviewQueue;
  /** The last write Graphiti refused during this command (its status), if any. */
  lastWriteRefusal(): WriteRefusal | undefined;
  /** With `preflight: 'soft'`: why the endpoint did not answer its health check. */
  readonly preflightFailure?: Error;
}

/** What a command that sends has; the read-only commands get the same shape, and fail loudly if they use these. */
const SEND_NEEDS: MemoryNeeds = { send: true, adoptJournals: true };

export async function openHarnessMemory(context: CommandContext, options: HarnessMemoryOptions = {}): Promise<HarnessMemory> {
  const { terminal, options: common } = context;
  const temporaryFor = (resolved: ResolvedEndpoint): boolean => !common.stateDirGiven && (options.temporaryStateUnlessGiven === true || resolved.emulator !== undefined);
  // The face the endpoint answered with before, from the state folder this command keeps.
  const opened = await openGraphiti(context, options.emulator ?? {}, (resolved) => (temporaryFor(resolved) ? undefined : common.stateDir));
  const { endpoint, face } = opened;
  const watched = watchWriteRefusals(opened.client, endpoint.url);
  const { client } = watched;
  let preflightFailure: Error | undefined;
  if (options.preflight === 'soft') {
    preflightFailure = await preflight(client, endpoint.url, common.timeoutMs, common.apiKey !== undefined, face).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
  } else if (options.preflight !== false) await preflight(client, endpoint.url, common.timeoutMs, common.apiKey !== undefined, face);

  const temporaryState = temporaryFor(endpoint);
  const stateDirectory = temporaryState ? await fs.mkdtemp(path.join(os.tmpdir(), 'graphiti-harness-')) : common.stateDir;
  if (temporaryState) context.defer(() => fs.rm(stateDirectory, { recursive: true, force: true }));
  const normalisedEndpoint = normaliseEndpoint(endpoint.url) ?? endpoint.url;
  const workspaceFolder = options.workspaceFolder ?? common.workspace;
  const logger = harnessLogger(terminal.env, terminal.stderr);
  const telemetry = new CountingTelemetry();
  const needs = options.needs ?? SEND_NEEDS;
  // git itself runs only for git metadata; the remote is read from `.git/config` as text.
  const [git, userKey] = await Promise.all([readGitFacts(workspaceFolder, { metadata: context.configuration.settings.includeGitMetadata }), harnessUserKey(stateDirectory, terminal.env, temporaryState, logger)]);
  let memory: OpenedMemory;
  try {
    memory = await openMemory({
      tool: 'graphiti-harness',
      settings: harnessSettings({
        configuration: context.configuration,
        endpoint: endpoint.url,
        options: common,
        ...(options.autoPromote === undefined ? {} : { autoPromote: options.autoPromote }),
        ...(options.review === undefined ? {} : { review: options.review }),
        ...(options.maxFacts === undefined ? {} : { maxFacts: options.maxFacts }),
        ...(options.granularity === undefined ? {} : { granularity: options.granularity }),
      }),
      client,
      endpoint: normalisedEndpoint,
      endpointLabel: endpoint.label,
      stateDirectory,
      workspaceFolder,
      git,
      userKey,
      // Running a command against an endpoint is the consent to send there, for this run only:
      // nothing is recorded, so a read-only command grants nothing.
      consent: commandConsent(normalisedEndpoint),
      logger,
      telemetry,
      ingestion: { resendAfterMs: (options.resendAfterSeconds ?? DEFAULT_RESEND_AFTER_SECONDS) * 1000 },
      needs,
    });
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    throw new HarnessError(`cannot open the harness state at ${stateDirectory}${codeOf(error)}.`, {
      hint: 'Check that the folder is writable, or pass another --state-dir.',
      cause: error,
    });
  }
  const problems = memory.configuration.problems();
  if (problems.length > 0) {
    throw new HarnessError(`the harness's memory settings are invalid: ${problems.join('; ')}`, {
      hint: 'Check --timeout-ms and --scopes; this is otherwise a bug in the harness.',
    });
  }
  // Registered after the endpoint's cleanup, so it runs first: stores close while the server is up.
  context.defer(async () => {
    // What this command's outbox (with the journals of dead runs it adopted) still holds, dead
    // letters aside. Left empty, it is noted as a drainer notes it: a later hook event then starts
    // no drainer for journals with nothing to send.
    const left = memory.outbox?.size();
    await memory.close();
    if (left === 0 && !temporaryState) await recordDrainEnd(stateDirectory, { endpoint: normalisedEndpoint, at: Date.now(), pending: 0 }).catch(() => undefined);
  });
  const missing = (name: string) => () => {
    throw new Error(`openHarnessMemory: ${name} was used by a command opened without needs.send; open it with the outbox`);
  };
  return {
    ...memory,
    endpoint,
    client,
    telemetry,
    stateDirectory,
    temporaryState,
    ingestion: memory.ingestion ?? unavailable<Ingestion>(missing('ingestion')),
    outbox: memory.outbox ?? unavailable<FileOutbox>(missing('the outbox')),
    promotion: memory.promotion ?? unavailable<PromotionService>(missing('promotion')),
    memoryPromotion: memory.memoryPromotion ?? unavailable<MemoryPromotion>(missing('promotion')),
    forget: memory.forget ?? unavailable<ForgetService>(missing('forget')),
    editing: memory.editing ?? unavailable<MemoryEditing>(missing('editing')),
    review: memory.review ?? unavailable<ReviewQueue>(missing('the review queue')),
    lastWriteRefusal: watched.lastRefusal,
    ...(preflightFailure === undefined ? {} : { preflightFailure }),
  };
}

/** An object whose every property access reports a broken invariant (a command used what it did not open). */
function unavailable<T extends object>(fail: () => never): T {
  return new Proxy({} as T, { get: () => fail() });
}

/** Consent to exactly this endpoint for this run; nothing is written. */
function commandConsent(endpoint: string): ConsentStore {
  const grantedAt = new Date().toISOString();
  return { get: () => ({ endpoint, grantedAt }), grant: async () => {}, revoke: async () => {} };
}

function codeOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === undefined ? '' : ` (${code})`;
}

async function preflight(client: GraphitiApi, url: string, timeoutMs: number, apiKeyGiven: boolean, face: RememberedFace): Promise<void> {
  try {
    await client.healthcheck({ maxRetries: 0 }).catch((error: unknown) => {
      // A remembered face the server no longer has: the client dropped it; asking again probes.
      if (face.droppedKnown()) return client.healthcheck({ maxRetries: 0 });
      throw error;
    });
  } catch (error) {
    throw describeGraphitiFailure(error, url, 'Reaching Graphiti', timeoutMs, { apiKeyGiven });
  }
}

/**
 * The user scope's key: the one in the user config, shared with the extension and the hooks, so the
 * user scope is one group for every tool; a key this state folder used before (global.json) is
 * adopted into it when there is none yet. Temporary state (the demo) keeps a throw-away key.
 */
async function harnessUserKey(stateDirectory: string, env: Readonly<Record<string, string | undefined>>, temporaryState: boolean, logger: Logger): Promise<string> {
  if (temporaryState) return randomUUID();
  let previous: unknown;
  try {
    const globalStore = await FileKeyValueStore.open(sharedStateFiles(stateDirectory).globalStore, { logger });
    previous = globalStore.get<unknown>(USER_KEY_STORAGE_KEY);
  } catch {
    // No earlier key to adopt.
  }
  try {
    return await ensureUserKey(env, typeof previous === 'string' ? previous : undefined);
  } catch (error) {
    logger.warn('user config unreadable; this run uses the state folder\'s own user key', { errorClass: errorClassOf(error) });
    return typeof previous === 'string' ? previous : randomUUID();
  }
}
