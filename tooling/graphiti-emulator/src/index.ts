export { startEmulator } from './server.js';
export type {
  EmulatorFace,
  EmulatorOptions,
  EmulatorState,
  EntityNodeRecord,
  EpisodeRecord,
  FactRecord,
  FaultPlan,
  FaultSettings,
  InjectedFault,
  McpRelease,
  RecordedRequest,
  RouteName,
  RunningEmulator,
} from './types.js';
