// Connecting agents, and disconnecting them, the one way both tools do it (`graphiti-harness hooks
// install|uninstall` and the extension's Connect / Disconnect): the consent for exactly one
// endpoint and the options go into the user config every tool reads, the API key into the 0600 key
// file, our entries into each agent's hook file; disconnecting removes exactly those entries and,
// once no agent has them, withdraws the consent where every hook looks (config and the memory
// switches) and stops the hook server and the drainer at once. What is queued stays on disk.
import {
  FileMemorySwitches,
  moveOnEndpointChange,
  readConfigFile,
  sharedStateDirectory,
  updateConfigFile,
  userConfigPath,
  writeApiKeyFile,
  type ConfigValues,
  type EndpointChange,
  type Environment,
} from '@graphiti-memory/memory-node-storage';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { drainerRunning, stopDrainer } from '../hook/drainer-info.js';
import { stopHookProcesses, type StoppedHookProcesses } from '../hook/stop-hook-processes.js';
import { agentHooksStatus, installAgentHooks, uninstallAgentHooks, type AgentHookChange, type AgentHookStatus, type AgentHookTarget } from './agent-hook-files.js';
import type { AgentHookCommand } from './hook-command.js';
import { mcpServersStatus } from './mcp-clients.js';
import { installRunner, pruneRunners, stateFolderOfCopy, type InstalledRunner } from './runner-install.js';

export type ConfigPatch = Partial<Record<keyof ConfigValues, unknown>>;

export interface ConnectAgentsOptions {
  readonly env: Environment;
  readonly home: string;
  readonly targets: readonly AgentHookTarget[];
  readonly command: AgentHookCommand;
  /**
   * The version of the connecting tool. When set, `command.scriptPath` (a built hook-runner.cjs) is
   * copied to `<state folder>/runner/<version>+<build>/` first and the hook files run the copy;
   * copies no hook file runs any more are removed, but for the one the hook files ran until now.
   */
  readonly runnerVersion?: string;
  /** Normalised: the one endpoint consented to. */
  readonly endpoint: string;
  /** Who asked: `graphiti-harness`, `vscode`. */
  readonly by: string;
  readonly now?: Date;
  /** Further values of the user config the connecting tool sets (scopes, timeouts, the state folder). */
  readonly config?: ConfigPatch;
  /** Written to the 0600 key file, never into a config or hooks file. */
  readonly apiKey?: string;
  /** Default: the shared state folder (`GRAPHITI_MEMORY_STATE_DIR`, the config's `stateDir`, the data folder). */
  readonly stateDirectory?: string;
}

export interface AgentsConnected {
  readonly configFile: string;
  readonly keyFile: string | undefined;
  readonly changes: readonly AgentHookChange[];
  /** What other endpoints' outboxes held: moved here (never confirmed: a typo) or kept (say so: `endpointChangeLines`). */
  readonly endpointChange: EndpointChange;
  /** The runner copy the hook files run (with `runnerVersion`). */
  readonly runner?: InstalledRunner;
  /** Runner copies removed: no hook file runs them. */
  readonly removedRunners: readonly string[];
}

/** Consent, options, key file, hook entries; throws (nothing of the failing file changed) on an unreadable config or hook file. */
export async function connectAgents(options: ConnectAgentsOptions): Promise<AgentsConnected> {
  const configFile = userConfigPath(options.env);
  const existing = await readConfigFile(configFile);
  if (!existing.ok) throw new Error(`the user config is invalid: ${existing.problems.join('; ')}. Fix the key or line it names (keep the file: it holds your user key and consent), then connect again.`);
  const stateDirectory = options.stateDirectory ?? (await sharedStateDirectory(options.env));
  // The runner copy first, whole: no hook file may point at it before it is complete.
  const previousRunners = runnersRun(await agentHooksStatus(options.home, options.env));
  const runner = options.runnerVersion === undefined ? undefined : await installRunner({ sourceEntry: options.command.scriptPath, version: options.runnerVersion, stateDirectory });
  const command = runner === undefined ? options.command : { ...options.command, scriptPath: runner.entry };
  const { recall, ...rest } = options.config ?? {};
  await updateConfigFile(configFile, {
    ...rest,
    enabled: true,
    endpoint: options.endpoint,
    consent: { endpoint: options.endpoint, grantedAt: (options.now ?? new Date()).toISOString(), by: options.by },
    // Connecting is the consent to search with each prompt (the consent says so): recall is on; the
    // configuration's `recall.enabled: false` later turns it off for every tool again.
    recall: { ...existing.values.recall, ...(typeof recall === 'object' && recall !== null ? recall : {}), enabled: true },
  });
  // Consent for this endpoint again: an earlier disconnect's revoke no longer holds.
  await FileMemorySwitches.inStateFolder(stateDirectory).clear({ endpoint: options.endpoint, switch: 'revoked' });
  const keyFile = options.apiKey === undefined ? undefined : await writeApiKeyFile(options.apiKey, options.env);
  const changes: AgentHookChange[] = [];
  for (const target of options.targets) changes.push(await installAgentHooks({ target, home: options.home, command, env: options.env }));
  // The copy the hook files ran until now stays for a session that started it (until the next install or uninstall).
  const removedRunners = runner === undefined ? [] : await pruneRunners({ stateDirectory, inUse: runnersRun(await agentHooksStatus(options.home, options.env)), keep: previousRunners });
  // What waits for an endpoint that never confirmed a delivery (a typo, a wrong port) moves here.
  const previous = [existing.values.consent?.endpoint, existing.values.endpoint];
  if (previous.some((endpoint) => endpoint !== undefined && normaliseEndpoint(endpoint) !== options.endpoint)) await stopDrainer(stateDirectory);
  const endpointChange = await moveOnEndpointChange(stateDirectory, options.endpoint, previous);
  return { configFile, keyFile, changes, endpointChange, ...(runner === undefined ? {} : { runner }), removedRunners };
}

/** The runner entries the hook files run. */
function runnersRun(statuses: readonly AgentHookStatus[]): string[] {
  return statuses.flatMap((status) => (status.runner === null ? [] : [status.runner.path]));
}

/** What an endpoint change did, one line each, as every tool says it. */
export function endpointChangeLines(change: EndpointChange): string[] {
  const lines = change.moved
    .filter((move) => move.records + move.openSegments > 0)
    .map((move) => `moved ${move.records} queued records from ${move.from}${move.openSegments > 0 ? ` (and ${move.openSegments} turns waiting for their digest)` : ''}: that endpoint never confirmed a delivery`);
  for (const kept of change.kept) {
    const where = kept.url ?? `an earlier endpoint (${kept.outboxDirectory})`;
    const how = kept.url === undefined ? 'move them with `graphiti-harness outbox move --from URL` once you know its URL' : `move them here with \`graphiti-harness outbox move --from ${kept.url}\``;
    lines.push(`${kept.queued + kept.deadLetters} queued records stay with ${where}${kept.confirmed ? ' (it confirmed deliveries before)' : ''}; ${how}`);
  }
  return lines;
}

export interface DisconnectAgentsOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  readonly targets: readonly AgentHookTarget[];
  /** Who asked, recorded with the revoke. */
  readonly by: string;
  /** Endpoints to revoke besides the config's (the one a command named). */
  readonly endpoints?: readonly string[];
  readonly stateDirectory?: string;
}

export interface AgentsDisconnected {
  readonly configFile: string;
  readonly changes: readonly AgentHookChange[];
  /** No agent has our entries any more: consent withdrawn from the config. */
  readonly consentRevoked: boolean;
  /** Recorded as revoked in the memory switches (normalised). */
  readonly revokedEndpoints: readonly string[];
  readonly stopped: StoppedHookProcesses;
  /** Runner copies removed from the state folder: no hook file runs them any more. */
  readonly removedRunners: readonly string[];
  /**
   * The MCP clients that still run our server (`graphiti-harness mcp install`): they use the same
   * consent, so it is kept while any remains.
   */
  readonly mcpClients: readonly string[];
}

export async function disconnectAgents(options: DisconnectAgentsOptions): Promise<AgentsDisconnected> {
  const changes: AgentHookChange[] = [];
  const before = runnersRun(await agentHooksStatus(options.home, options.env));
  for (const target of options.targets) changes.push(await uninstallAgentHooks({ target, home: options.home, env: options.env }));
  const statuses = await agentHooksStatus(options.home, options.env);
  const remaining = statuses.reduce((sum, entry) => sum + entry.entries.length, 0);
  const configFile = userConfigPath(options.env);
  const stateDirectory = options.stateDirectory ?? (await sharedStateDirectory(options.env));
  // The copies this state folder holds, and those of the state folder the removed entries ran from
  // (installed with another --state-dir).
  const removedRunners: string[] = [];
  for (const folder of new Set([stateDirectory, ...before.flatMap((entry) => stateFolderOfCopy(entry) ?? [])])) {
    removedRunners.push(...(await pruneRunners({ stateDirectory: folder, inUse: runnersRun(statuses) })));
  }
  const mcpClients = (await mcpServersStatus({ home: options.home, env: options.env })).filter((status) => status.installed).map((status) => status.label);
  if (remaining > 0 || mcpClients.length > 0) return { configFile, changes, consentRevoked: false, revokedEndpoints: [], stopped: { servers: 0, drainer: false }, removedRunners, mcpClients };
  const config = await readConfigFile(configFile);
  let consentRevoked = false;
  if (config.ok) {
    await updateConfigFile(configFile, { consent: undefined });
    consentRevoked = true;
  }
  // Recorded where every tool and every hook looks, so a config consent written later by another
  // tool does not quietly re-open what was disconnected; connecting again clears it.
  const switches = FileMemorySwitches.inStateFolder(stateDirectory);
  // A file with a typo still names its consent and endpoint (salvaged): both are revoked all the same.
  const salvaged = config.ok ? config : await readConfigFile(configFile, 'project');
  const values = salvaged.ok ? salvaged.values : undefined;
  const named = [values?.consent?.endpoint, values?.endpoint, ...(options.endpoints ?? [])];
  const revokedEndpoints = [...new Set(named.map((endpoint) => (endpoint === undefined ? undefined : normaliseEndpoint(endpoint))).filter((endpoint): endpoint is string => endpoint !== undefined && endpoint !== ''))];
  // Asked before the revoke is written: a drainer that reads the switches may leave on its own
  // before the stop request reaches it, and it was stopped all the same.
  const drainerWasRunning = await drainerRunning(stateDirectory);
  for (const endpoint of revokedEndpoints) await switches.mark({ endpoint, switch: 'revoked' }, options.by);
  // At once: no hook server keeps serving and no drainer keeps sending (what is queued stays on disk).
  const stopped = await stopHookProcesses(options.env, stateDirectory);
  return { configFile, changes, consentRevoked, revokedEndpoints, stopped: { ...stopped, drainer: stopped.drainer || drainerWasRunning }, removedRunners, mcpClients };
}
