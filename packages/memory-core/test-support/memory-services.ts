// The policy services of memory-core (gate, group ids, planning, promotion, recall) wired to
// fakes in one call, so a test states only what differs: the settings, trust, consent and the
// Graphiti connection.
import { DefaultMemoryGate } from '../src/gate/memory-gate.js';
import { DefaultTurnPlanner } from '../src/planning/turn-planner.js';
import type { Clock, GraphitiApi } from '../src/ports.js';
import { DefaultPromotionService } from '../src/promotion/promotion-service.js';
import { DefaultRecallService } from '../src/recall/recall-service.js';
import { InMemoryLoopStore } from '../src/loops/in-memory-loop-store.js';
import { LoopService } from '../src/loops/loop-service.js';
import { InMemoryPendingMemoryStore } from '../src/review/in-memory-pending-memory-store.js';
import { DefaultGroupIdResolver } from '../src/scopes/group-id-resolver.js';
import type { SecretGuard } from '../src/secrets/secret-guard.js';
import { SecretlintSecretGuard } from '../src/secrets/secretlint-secret-guard.js';
import { ConfiguredMemorySettings } from '../src/settings/memory-configuration.js';
import {
  FakeClock,
  FakeConsentStore,
  FakeSettingsSource,
  FakeWorkspaceContext,
  FixedGraphitiConnection,
  InMemoryKeyValueStore,
  RecordingTelemetry,
  type FakeWorkspaceOptions,
} from './fakes.js';

export interface PolicyServicesOptions {
  /** Raw settings (as the host stores them); enabled with the default endpoint unless given. */
  readonly settings?: unknown;
  readonly workspace?: FakeWorkspaceOptions;
  /** The endpoint consent was given for; none when `null`. Default: `http://localhost:8000`. */
  readonly consentFor?: string | null;
  readonly api?: GraphitiApi;
  /** A `FakeClock` by default; pass `SystemClock` for deadlines against the emulator. */
  readonly clock?: Clock;
  readonly secretGuard?: SecretGuard;
  /** Where the user key is kept: shared, two services are one person (their groups derive from that key). */
  readonly globalStore?: InMemoryKeyValueStore;
}

export function createPolicyServices(options: PolicyServicesOptions = {}) {
  const settingsSource = new FakeSettingsSource(
    options.settings ?? { enabled: true, endpoint: 'http://localhost:8000', recall: { enabled: true } },
  );
  const configuration = new ConfiguredMemorySettings(settingsSource);
  const workspace = new FakeWorkspaceContext(options.workspace);
  const clock: Clock = options.clock ?? new FakeClock();
  const consent = new FakeConsentStore(
    options.consentFor === null ? undefined : (options.consentFor ?? 'http://localhost:8000'),
    clock,
  );
  const globalStore = options.globalStore ?? new InMemoryKeyValueStore();
  const workspaceStore = new InMemoryKeyValueStore();
  const telemetry = new RecordingTelemetry();
  const connection = new FixedGraphitiConnection(options.api);
  const secretGuard = options.secretGuard ?? new SecretlintSecretGuard();
  const gate = new DefaultMemoryGate(configuration, workspace, consent);
  const groups = new DefaultGroupIdResolver(configuration, workspace, globalStore);
  const promotion = new DefaultPromotionService(gate, configuration, groups, secretGuard, clock, telemetry, workspace);
  const pending = new InMemoryPendingMemoryStore();
  const loopStore = new InMemoryLoopStore();
  const loops = new LoopService(groups, promotion, secretGuard, configuration, clock, { tool: 'agent-hooks' }, loopStore);
  const planner = new DefaultTurnPlanner(
    gate,
    configuration,
    groups,
    secretGuard,
    promotion,
    workspace,
    workspaceStore,
    clock,
    telemetry,
    pending,
    undefined,
    loops,
  );
  const recall = new DefaultRecallService(gate, configuration, groups, connection, clock, telemetry, secretGuard);
  return {
    settingsSource,
    configuration,
    workspace,
    clock,
    consent,
    globalStore,
    workspaceStore,
    telemetry,
    connection,
    secretGuard,
    gate,
    groups,
    promotion,
    pending,
    loopStore,
    loops,
    planner,
    recall,
  };
}

export type PolicyServices = ReturnType<typeof createPolicyServices>;
