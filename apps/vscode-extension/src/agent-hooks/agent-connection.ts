// Connects Copilot agent mode and Claude Code to the same memory as the extension: the bundled
// hook runner is copied to `<state folder>/runner/<version>+<build>/` (agent-hooks' runner-install:
// a path that survives extension updates and uninstalls, written whole before a hook file names it), the
// extension's endpoint, scopes and recall settings plus the consent go into the shared user
// config, the API key from secret storage into the 0600 key file, and our entries into the
// agents' hook files. Disconnect undoes exactly that, and records the endpoint as revoked in the
// shared memory switches (so every hook stays silent even if a consent comes back into the config
// from elsewhere) and stops the hook servers and the drainer at once; Connect clears that mark.
import { promises as fs } from 'node:fs';
import { inject, injectable } from 'inversify';
import { GlobalStore, type KeyValueStore, type MemorySettings } from '@graphiti-memory/memory-core';
import {
  agentHooksStatus,
  ASSISTANTS,
  connectAgents,
  disconnectAgents,
  endpointChangeLines,
  installAgentHooks,
  installRunner,
  pruneRunners,
  type AgentHookCommand,
  type AgentHookTarget,
} from '@graphiti-memory/agent-hooks';
import { apiKeyFilePath, readConfigFile, sharedStateDirectory, updateConfigFile, userConfigPath, writeApiKeyFile } from '@graphiti-memory/memory-node-storage';
import { ApiKeyStore } from '../adapters/api-key-store.js';
import { AgentHookPlaces } from './agent-hook-places.js';

export const CONNECTED_BY = 'vscode';
/** Global state mark: the key file holds the key this extension wrote, so clearing the key removes it. */
export const KEY_FILE_MARK = 'graphitiMemory.agents.keyFileWritten';

/** The agents Connect installs hooks for, in the order they are named to the user. */
export const AGENT_TARGETS: readonly AgentHookTarget[] = ['copilot', 'claude'];
/** What the user calls each connected assistant (those the harness connected too: the registry's names). */
export const AGENT_NAMES: Readonly<Record<AgentHookTarget, string>> = {
  ...(Object.fromEntries(ASSISTANTS.map((assistant) => [assistant.target, assistant.name])) as Record<AgentHookTarget, string>),
  copilot: 'Copilot agent mode',
  claude: 'Claude Code',
};

export interface AgentConnectionChange {
  /** Every file written or removed, for the message and the log (paths only, never contents). */
  readonly files: readonly string[];
  /** What other endpoints' queues did (moved here from a typo's, or kept): `endpointChangeLines`. */
  readonly queueNotes?: readonly string[];
}

@injectable()
export class AgentConnection {
  constructor(
    @inject(AgentHookPlaces) private readonly places: AgentHookPlaces,
    @inject(ApiKeyStore) private readonly keys: ApiKeyStore,
    @inject(GlobalStore) private readonly state: KeyValueStore,
  ) {}

  async connect(settings: MemorySettings, now: Date): Promise<AgentConnectionChange> {
    await this.#requireRunner();
    const key = this.keys.current() ?? (await this.keys.load());
    // The one way every tool connects agents (agent-hooks): the runner copied into the state folder,
    // consent and options in the user config, the key in the 0600 key file, our entries in each
    // agent's hook file.
    const connected = await connectAgents({
      env: this.places.environment,
      home: this.places.home,
      targets: AGENT_TARGETS,
      command: this.#command(this.places.bundledRunner),
      runnerVersion: this.places.version,
      endpoint: settings.endpoint,
      by: CONNECTED_BY,
      now,
      config: agentSettings(settings),
      ...(key === undefined ? {} : { apiKey: key }),
    });
    if (connected.keyFile !== undefined) await this.state.set(KEY_FILE_MARK, true);
    const files = [...(connected.runner === undefined ? [] : [connected.runner.entry]), connected.configFile];
    files.push(...(connected.keyFile === undefined ? [] : [connected.keyFile]), ...connected.changes.map((change) => change.file));
    return { files, queueNotes: endpointChangeLines(connected.endpointChange) };
  }

  async disconnect(): Promise<AgentConnectionChange> {
    // Revoked where every hook looks, and the hook processes stopped now, not at their next event.
    const disconnected = await disconnectAgents({ env: this.places.environment, home: this.places.home, targets: AGENT_TARGETS, by: CONNECTED_BY });
    const files = [...disconnected.changes.filter((change) => change.changed).map((change) => change.file), disconnected.configFile];
    if (await this.removeKeyFile()) files.push(apiKeyFilePath(this.places.environment));
    return { files };
  }

  /** The agents whose hook files hold our entries. */
  async connected(): Promise<AgentHookTarget[]> {
    const statuses = await agentHooksStatus(this.places.home);
    return AGENT_TARGETS.filter((target) => statuses.some((status) => status.target === target && status.entries.length > 0));
  }

  /**
   * After an update of the extension (or of VS Code, whose runtime runs the runner): installs this
   * version's runner copy beside the old one and switches the hook commands to it when they differ;
   * the copy they ran until now stays for a session that started it. Does nothing when not connected.
   */
  async refresh(): Promise<boolean> {
    const targets = await this.connected();
    if (targets.length === 0) return false;
    await this.#requireRunner();
    const stateDirectory = await sharedStateDirectory(this.places.environment);
    const previous = await this.#runnersRun();
    const runner = await installRunner({ sourceEntry: this.places.bundledRunner, version: this.places.version, stateDirectory });
    let changed = runner.copied;
    for (const target of targets) {
      changed = (await installAgentHooks({ target, home: this.places.home, command: this.#command(runner.entry) })).changed || changed;
    }
    await pruneRunners({ stateDirectory, inUse: await this.#runnersRun(), keep: previous });
    return changed;
  }

  /**
   * Mirrors the settings the hooks must share with this window (where turns go, how group ids are
   * made, how recall searches) into the user config while connected, so what Connect wrote never
   * goes stale; writes only what differs (the config file is a layer this window reads too).
   */
  async syncSettings(settings: MemorySettings): Promise<boolean> {
    if ((await this.connected()).length === 0) return false;
    const file = userConfigPath(this.places.environment);
    const current = await readConfigFile(file);
    if (!current.ok) return false;
    const wanted = agentSettings(settings);
    const values = current.values as Record<string, unknown>;
    const differs = Object.entries(wanted).some(([key, value]) =>
      key === 'recall'
        ? Object.entries(value as Record<string, unknown>).some(([inner, innerValue]) => JSON.stringify((values['recall'] as Record<string, unknown> | undefined)?.[inner]) !== JSON.stringify(innerValue))
        : JSON.stringify(values[key]) !== JSON.stringify(value),
    );
    if (!differs) return false;
    await updateConfigFile(file, { ...wanted, recall: { ...current.values.recall, ...wanted.recall } });
    return true;
  }

  /** Mirrors a changed API key into the key file while connected (Set / Clear API Key). */
  async syncApiKey(): Promise<void> {
    if ((await this.connected()).length === 0) return;
    const key = this.keys.current();
    if (key === undefined) await this.removeKeyFile();
    else await this.#writeKeyFile(key);
  }

  /** Removes the key file when this extension wrote it; true when removed. */
  async removeKeyFile(): Promise<boolean> {
    if (this.state.get<boolean>(KEY_FILE_MARK) !== true) return false;
    await fs.rm(apiKeyFilePath(this.places.environment), { force: true });
    await this.state.delete(KEY_FILE_MARK);
    return true;
  }

  async #writeKeyFile(key: string): Promise<string> {
    const file = await writeApiKeyFile(key, this.places.environment);
    await this.state.set(KEY_FILE_MARK, true);
    return file;
  }

  #command(scriptPath: string): AgentHookCommand {
    return {
      nodePath: this.places.runtime.path,
      scriptPath,
      environment: this.places.runtime.environment,
      installedBy: CONNECTED_BY,
    };
  }

  async #requireRunner(): Promise<void> {
    try {
      await fs.access(this.places.bundledRunner);
    } catch {
      throw new Error(`the hook runner is missing from this installation (${this.places.bundledRunner}); reinstall the Graphiti Memory extension`);
    }
  }

  /** The runner entries the agents' hook files run now. */
  async #runnersRun(): Promise<string[]> {
    return (await agentHooksStatus(this.places.home)).flatMap((status) => (status.runner === null ? [] : [status.runner.path]));
  }
}

/** What the hooks must share with the extension, in the user config's terms. */
function agentSettings(settings: MemorySettings) {
  return {
    scopes: settings.scopes === 'both' ? ['session', 'workspace'] : [settings.scopes],
    groupIdStrategy: settings.groupIdStrategy,
    includeGitMetadata: settings.includeGitMetadata,
    recall: { timeoutMs: settings.recall.timeoutMs, maxFacts: settings.recall.maxFacts, scopes: settings.recall.scopes, stale: settings.recall.stale },
  };
}
