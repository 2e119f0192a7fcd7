// What the other real-client e2e packages (tooling/agent-clients-e2e) share with this one, so a
// sandbox, a check list, the reading of the emulator's deliveries and the pinned installs live in
// one place.
export { Checks, type CheckResult } from './checks.js';
export { countByGroupAndName, deliveriesOf, isCapturedEpisodeName, DIGEST_EPISODE_NAME, TURN_EPISODE_NAME, type Delivery } from './deliveries.js';
export { textOf } from './model-server.js';
export { RUN_MARKER, Sandbox, sleep, waitFor, type CommandOptions, type CommandResult } from './sandbox.js';
export { harnessBinary, Tools, type HarnessResult, type ToolPaths } from './tools.js';
export { cacheDirectory, ensurePinnedCli, SetupError, type PinnedCli } from './setup.js';
export { describeStoredTurns, distinctNames, storedTurnCounts, waitForStoredTurns } from './stored-turns.js';
export type { ModelRequest } from './model-server.js';
export { serveOnLoopback, type LoopbackRequest, type LoopbackServer } from './loopback-server.js';
