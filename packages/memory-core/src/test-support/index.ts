// Test doubles of memory-core: the `./testing` export (workspace-only, built into dist-testing/
// by tsconfig.testing.json, never published), used by tooling/benchmarks.
export * from './fake-graphiti-api.js';
export * from './emulator-delivery.js';
export * from './fake-host-ports.js';
export * from './fakes.js';
export * from './memory-services.js';
export { FakeTurnPlanner, makeTurn, MutableMemoryConfiguration, SwitchableGate, waitUntil } from '../ingestion/test-support-ingestion.js';
