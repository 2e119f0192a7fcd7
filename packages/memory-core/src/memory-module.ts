// The one ContainerModule of memory-core: every policy service bound to its token. Apps (the VS Code
// extension, the dev harness) load it into the container they build and bind the ports of
// src/ports.ts themselves; memory-core never builds a container.
import { ContainerModule, type ContainerModuleLoadOptions } from 'inversify';
import { DigestWriting } from './digest/digest-writing.js';
import { MemoryEditing, SupersedingMemoryEditing } from './editing/index.js';
import { ForgetLedger, ForgetService, InMemoryForgetLedger, IngestionQueuedGroups, OwedDeletions, QueuedGroups } from './forget/index.js';
import { MemoryGate, DefaultMemoryGate } from './gate/index.js';
import { InMemoryIngestionStorage } from './ingestion/in-memory-ingestion-storage.js';
import { IngestionService } from './ingestion/ingestion-service.js';
import { TurnMirror } from './mirror/turn-mirror.js';
import { Ingestion } from './ingestion/ingestion.js';
import { TurnPlanner, DefaultTurnPlanner } from './planning/index.js';
import { IngestionStorage } from './ports.js';
import { DefaultPromotionService, MemoryPromotion, PromotionService, QueuedMemoryPromotion } from './promotion/index.js';
import { DefaultRecallService, RecallService } from './recall/index.js';
import { GroupRecorder, GroupRegistry, InMemoryGroupRegistry } from './registry/index.js';
import { InMemoryLoopStore } from './loops/in-memory-loop-store.js';
import { LoopProposals } from './loops/loop-proposals.js';
import { LoopService } from './loops/loop-service.js';
import { LoopStore } from './loops/open-loop.js';
import { InMemoryPendingMemoryStore, PendingMemoryStore, ReviewQueue } from './review/index.js';
import { DefaultGroupIdResolver, GroupIdResolver } from './scopes/index.js';
import { SecretGuard, SecretlintSecretGuard } from './secrets/index.js';
import { ConfiguredMemorySettings, MemoryConfiguration } from './settings/index.js';
import { MessageSourceStamp } from './sources/index.js';
import { DefaultLocalTier, LocalTier } from './tier/local-tier.js';

/**
 * Binds memory-core's services; ingestion is one binding, `Ingestion`. The app binds: SettingsSource,
 * WorkspaceContext, ConsentStore, GlobalStore, WorkspaceStore, Clock, Logger, TelemetrySink,
 * GraphitiConnection and IngestionStorage (the durable one of memory-node-storage's
 * `createNodeStorageModule()`, or `createInMemoryStorageModule()`), and
 * optionally IngestionOptions, GroupRegistry, PendingMemoryStore, ForgetLedger (what forgets owe and
 * keep forgotten; without one a forget deletes at once or reports the failure), GroupRecorderOptions (the tool
 * name the registry records and citations name), EpisodeSources (the record of delivered episodes
 * citations come from), WorkspaceFiles (the stale check), LocalTierStore (where the local tier is kept), DigestWriter (a chat model that writes
 * session digests, `capture.digestWriter: chatModel`), LoopProposer (a chat model that proposes loops for review,
 * `loops.proposeWithModel`) and QueuedGroups (rebinding the ingestion-based default). Without a
 * PendingMemoryStore, review-held directives are not kept (and never sent).
 */
export function createMemoryModule(): ContainerModule {
  return new ContainerModule((options) => {
    const { bind } = options;
    bindRecallServices(options);
    bind(PromotionService).to(DefaultPromotionService).inSingletonScope();
    bind(TurnPlanner).to(DefaultTurnPlanner).inSingletonScope();
    bind(Ingestion).to(IngestionService).inSingletonScope();
    bind(TurnMirror).toSelf().inSingletonScope();
    bind(MemoryPromotion).to(QueuedMemoryPromotion).inSingletonScope();
    bind(GroupRecorder).toSelf().inSingletonScope();
    bind(QueuedGroups).to(IngestionQueuedGroups).inSingletonScope();
    bind(ForgetService).toSelf().inSingletonScope();
    bind(LoopService).toSelf().inSingletonScope();
    // Uses the app's LoopProposer when one is bound (VS Code's chat model, loops.proposeWithModel).
    bind(LoopProposals).toSelf().inSingletonScope();
    bind(OwedDeletions).toSelf().inSingletonScope();
    bind(ReviewQueue).toSelf().inSingletonScope();
    bind(MemoryEditing).to(SupersedingMemoryEditing).inSingletonScope();
    bind(MessageSourceStamp).toSelf().inSingletonScope();
    // Uses the app's DigestWriter when one is bound (VS Code's chat model); else digests stay filtered.
    bind(DigestWriting).toSelf().inSingletonScope();
  });
}

/**
 * The recall side alone (the secret guard, settings, gate, group ids and recall), for a process
 * that only recalls — a cold hook prompt — and so need not load ingestion, promotion or forget.
 * The app binds the same ports as for `createMemoryModule()`, without IngestionStorage, and
 * optionally EpisodeSources, WorkspaceFiles and ForgetLedger (citations, the stale check and what
 * forgets keep forgotten). `createMemoryModule()` binds these same services: load one or the other.
 */
export function createRecallModule(): ContainerModule {
  return new ContainerModule(bindRecallServices);
}

/** What recall resolves through: bound here once, for both modules. */
function bindRecallServices({ bind }: ContainerModuleLoadOptions): void {
  bind(SecretGuard).to(SecretlintSecretGuard).inSingletonScope();
  bind(MemoryConfiguration).to(ConfiguredMemorySettings).inSingletonScope();
  bind(MemoryGate).to(DefaultMemoryGate).inSingletonScope();
  bind(GroupIdResolver).to(DefaultGroupIdResolver).inSingletonScope();
  bind(RecallService).to(DefaultRecallService).inSingletonScope();
  // The local tier: its policy here, its store (LocalTierStore) the app's; without one it keeps nothing.
  bind(LocalTier).to(DefaultLocalTier).inSingletonScope();
}

/** In-memory ingestion storage, group registry, pending store and forget ledger: nothing survives the process (tests, one-shot tools). */
export function createInMemoryStorageModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(IngestionStorage).to(InMemoryIngestionStorage).inSingletonScope();
    bind(GroupRegistry).to(InMemoryGroupRegistry).inSingletonScope();
    bind(PendingMemoryStore).to(InMemoryPendingMemoryStore).inSingletonScope();
    bind(LoopStore).to(InMemoryLoopStore).inSingletonScope();
    bind(ForgetLedger).to(InMemoryForgetLedger).inSingletonScope();
  });
}
