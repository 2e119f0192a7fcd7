// memory-core composed for one hook run: the endpoint, consent and user key of the shared config,
// the workspace of the event's cwd (its git remote names the workspace scope, as in the extension
// and the harness), and — for Stop, SessionEnd and the drainer — the durable outbox of the state
// folder. Nothing is checked over the network first: a hook must not wait for a health check, and
// with `server: auto` the face the endpoint answered with before is used without probing.
import { createGraphitiClient } from '@graphiti-memory/graphiti-client';
import type { IngestionOptions, Logger, MemorySettings } from '@graphiti-memory/memory-core';
import { FileMemorySwitches, memorySettingsFor, SwitchedConsentStore, type ResolvedMemoryConfig } from '@graphiti-memory/memory-node-storage';
import { rememberedFace } from '../memory/remembered-face.js';
import { readGitFacts } from '../composition/git-facts.js';
import { adoptLeftoverJournals } from '../composition/leftover-journals.js';
import { openMemory, openRecallMemory, OUTBOX_MAX_QUEUE_SIZE, type OpenedMemory, type RecallMemoryOptions } from '../memory/open-memory.js';

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
  /** Timing of ingestion's loops (the drainer's slower retry cap); memory-core's defaults otherwise. */
  readonly ingestion?: Partial<IngestionOptions>;
}

/** Memory of one hook run: `openMemory`'s, and the client it speaks through (closed with it). */
export type HookMemory = OpenedMemory;

export async function openHookMemory(options: HookMemoryOptions): Promise<HookMemory> {
  const ingestion = options.ingestion === undefined ? {} : { ingestion: options.ingestion };
  return openWith(options, (memoryOptions) => openMemory({ ...memoryOptions, ...ingestion, needs: { send: options.durable } }));
}

/**
 * Memory for UserPromptSubmit, in every core: it only recalls, so memory-core's recall side alone
 * (`openRecallMemory`), and the lean prompt core that opens memory only here bundles no send side.
 */
export function openRecallHookMemory(options: HookMemoryOptions): Promise<HookMemory> {
  return openWith({ ...options, durable: false }, openRecallMemory);
}

/** The client, git facts, consent and settings of a hook run, for either way of opening memory. */
async function openWith(options: HookMemoryOptions, open: (memoryOptions: RecallMemoryOptions) => Promise<OpenedMemory>): Promise<HookMemory> {
  const { config } = options;
  // The remote (the workspace group) is read from `.git/config` as text; git runs only when turns
  // carry branch and commit (`includeGitMetadata`), never for a prompt, which needs the remote only.
  const [face, git] = await Promise.all([
    rememberedFace(config.server, options.stateDirectory, options.endpoint),
    readGitFacts(options.workspaceFolder, { metadata: options.durable && config.settings.includeGitMetadata }),
  ]);
  const client = createGraphitiClient({
    kind: config.server,
    baseUrl: options.endpoint,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    timeoutMs: options.requestTimeoutMs,
    maxRetries: options.durable ? 1 : 0,
    userAgent: USER_AGENT,
    ...face.clientOptions,
  });
  const consent = config.consent;
  let memory: OpenedMemory;
  try {
    memory = await open({
      tool: 'agent-hooks',
      settings: hookSettings(options),
      client,
      endpoint: options.endpoint,
      stateDirectory: options.stateDirectory,
      workspaceFolder: options.workspaceFolder,
      git,
      userKey: options.userKey,
      // Consent is given by `hooks install` (or the extension's Connect), never by a hook run; a
      // switch turned off in any tool (the shared memory switches) closes it, also mid-drain.
      consent: new SwitchedConsentStore({
        base: {
          get: () => (consent === undefined ? undefined : { endpoint: consent.endpoint, grantedAt: consent.grantedAt }),
          grant: async () => {},
          revoke: async () => {},
        },
        switches: FileMemorySwitches.inStateFolder(options.stateDirectory, options.logger),
        workspaceFolder: options.workspaceFolder,
      }),
      logger: options.logger,
    });
  } catch (error) {
    await client.close();
    await face.settled();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    ...memory,
    close: () =>
      (closed ??= (async () => {
        await memory.close();
        await client.close();
        await face.settled();
      })()),
  };
}

/** Takes over journals left by hook runs that already returned (their locks are released). */
export async function adoptHookJournals(memory: HookMemory): Promise<void> {
  if (memory.outbox !== undefined) await adoptLeftoverJournals(memory.outbox);
}

/**
 * memory-core's settings for a hook run: the configuration every tool reads, through the one
 * function that turns it into settings; a hook decides only that it is on (consent is checked by
 * the gate), its endpoint, the outbox bound and the per-request timeout of this event.
 */
function hookSettings(options: HookMemoryOptions): MemorySettings {
  return memorySettingsFor(options.config, {
    enabled: true,
    endpoint: options.endpoint,
    timeoutMs: Math.min(120_000, Math.max(100, options.requestTimeoutMs)),
    maxQueueSize: OUTBOX_MAX_QUEUE_SIZE,
  });
}
