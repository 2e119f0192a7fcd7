// Public entry of @graphiti-memory/agent-hooks: what the apps use to run, serve, install and report
// agent hooks, and the Node composition pieces they share. Keep this list sorted by module.
export { readGitFacts, remoteFromGitConfig, type GitFacts } from './composition/git-facts.js';
export { adoptLeftoverJournals, OUTBOX_STALE_LOCK_MS } from './composition/leftover-journals.js';
export { StaticSettingsSource } from './composition/static-settings-source.js';
export { TerminalWorkspaceContext } from './composition/terminal-workspace-context.js';
export { deliveryFooter, endpointDeliveryNotice } from './hook/delivery-footer.js';
export { pingHookServer } from './hook/hook-forward.js';
export { readHookRuns, type HookRun } from './hook/hook-log.js';
export { HOOK_SERVER_IDLE_VARIABLE, HOOK_SERVER_PROTOCOL, HOOK_SERVER_VARIABLE, hookServerPlace, type HookServerPlace, type HookServerStorageFault } from './hook/hook-server-place.js';
export { hookServerStatus, runningHookServers, type HookServerStatus, type RunningHookServer } from './hook/hook-server-status.js';
export { readHookStdin } from './hook/hook-stdin.js';
export { processAlive, waitUntilGone } from './hook/processes-gone.js';
export { runHook, type HookIo, type HookRunSummary } from './hook/run-hook.js';
export { runnerBuild } from './hook/runner-build.js';
export { stopHookProcesses, type StoppedHookProcesses } from './hook/stop-hook-processes.js';
export * from './installers/index.js';
export { InMemoryKeyValueStore } from './memory/in-memory-key-value-store.js';
export { openMemory, OUTBOX_MAX_QUEUE_SIZE, type MemoryNeeds, type MemoryTool, type OpenedMemory, type OpenMemoryOptions } from './memory/open-memory.js';
export { EndpointGroupRegistry, sharedAuditLog, sharedPendingMemoryStore } from './memory/shared-stores.js';
export { createStateModules, type StateModuleOptions } from './memory/state-module.js';
export { NO_REMEMBERED_FACE, rememberedFace, type RememberedFace } from './memory/remembered-face.js';
export { recordDrainEnd, type DrainEnd } from './hook/waiting-records.js';
