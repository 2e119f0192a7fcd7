export { startEmulator } from './server.js';
export type {
  EmulatorOptions,
  EmulatorState,
  EntityNodeRecord,
  EpisodeRecord,
  FactRecord,
  FaultPlan,
  FaultSettings,
  InjectedFault,
  RecordedRequest,
  RouteName,
  RunningEmulator,
} from './types.js';
