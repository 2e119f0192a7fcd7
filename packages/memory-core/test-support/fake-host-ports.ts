// The ports an app binds before it loads createMemoryModule(), bound to fakes in one call, so a
// test that composes memory-core as an app does states only what differs: the settings, whom
// consent was given to, the clock and the Graphiti connection.
import type { Container } from 'inversify';
import {
  Clock,
  ConsentStore,
  GlobalStore,
  GraphitiConnection,
  Logger,
  SettingsSource,
  TelemetrySink,
  WorkspaceContext,
  WorkspaceStore,
} from '../src/ports.js';
import {
  FakeClock,
  FakeConsentStore,
  FakeSettingsSource,
  FakeWorkspaceContext,
  InMemoryKeyValueStore,
  type FakeWorkspaceOptions,
  RecordingLogger,
  RecordingTelemetry,
} from './fakes.js';

export interface FakeHostPortsOptions {
  /** Raw settings, as the host stores them. */
  readonly settings: unknown;
  /** The endpoint consent was given for. */
  readonly consentFor: string;
  readonly connection: GraphitiConnection;
  /** A `FakeClock` unless given (`SystemClock` for deadlines against the emulator). */
  readonly clock?: Clock;
  /** The workspace's facts (folders, git remote, account); a trusted default folder unless given. */
  readonly workspace?: FakeWorkspaceOptions;
  /** The user's global store (where the user key lives); empty unless given. */
  readonly globalStore?: InMemoryKeyValueStore;
}

/** Binds every host port memory-core asks for; a trusted workspace, empty stores, recording logs. */
export function bindFakeHostPorts(container: Container, options: FakeHostPortsOptions): void {
  container.bind(SettingsSource).toConstantValue(new FakeSettingsSource(options.settings));
  container.bind(WorkspaceContext).toConstantValue(new FakeWorkspaceContext(options.workspace));
  container.bind(ConsentStore).toConstantValue(new FakeConsentStore(options.consentFor));
  container.bind(GlobalStore).toConstantValue(options.globalStore ?? new InMemoryKeyValueStore());
  container.bind(WorkspaceStore).toConstantValue(new InMemoryKeyValueStore());
  container.bind(Clock).toConstantValue(options.clock ?? new FakeClock());
  container.bind(Logger).toConstantValue(new RecordingLogger());
  container.bind(TelemetrySink).toConstantValue(new RecordingTelemetry());
  container.bind(GraphitiConnection).toConstantValue(options.connection);
}
