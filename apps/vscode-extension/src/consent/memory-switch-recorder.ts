// What the user switches off in VS Code, written where every agent hook reads it (the shared
// memory switches of the state folder): consent revoked in this workspace, `graphitiMemory.enabled`
// turned off (a workspace value: this workspace; a user value: everywhere), the folder untrusted,
// and Disconnect (the endpoint). A switch turned off also stops the hook servers and the drainer at
// once; turned back on, the mark is cleared. No `vscode` here: the contributions hand in what VS
// Code says, so this is tested against real files.
import { stopHookProcesses, type StoppedHookProcesses } from '@graphiti-memory/agent-hooks';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { FileMemorySwitches, sharedStateDirectory, type Environment, type SwitchTarget } from '@graphiti-memory/memory-node-storage';

export const SWITCHED_BY = 'vscode';

/** The values of `graphitiMemory.enabled` VS Code keeps (`inspect`); the default never counts. */
export interface EnabledValues {
  readonly globalValue?: boolean | undefined;
  readonly workspaceValue?: boolean | undefined;
  readonly workspaceFolderValue?: boolean | undefined;
}

export interface MemorySwitchRecorderOptions {
  readonly environment: Environment;
  /** The absolute paths of the window's workspace folders. */
  readonly folders: () => readonly string[];
  /** Tests replace it; the default asks the hook servers and the drainer of the state folder to leave. */
  readonly stop?: (env: Environment, stateDirectory: string) => Promise<StoppedHookProcesses>;
}

export class MemorySwitchRecorder {
  /** One write at a time, in order: a quick off-on must end on. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: MemorySwitchRecorderOptions) {}

  /** Consent in this workspace was granted (`true`) or revoked. */
  consentChanged(consented: boolean): Promise<void> {
    return this.#apply(this.options.folders().map((workspace) => ({ target: { workspace, switch: 'revoked' }, on: !consented })));
  }

  /** `graphitiMemory.enabled` as VS Code keeps it; an unset value clears the mark it would make. */
  enabledChanged(values: EnabledValues): Promise<void> {
    const workspaceOff = values.workspaceFolderValue === false || (values.workspaceFolderValue === undefined && values.workspaceValue === false);
    return this.#apply([
      { target: { everywhere: 'off' }, on: values.globalValue === false },
      ...this.options.folders().map((workspace) => ({ target: { workspace, switch: 'off' } as const, on: workspaceOff })),
    ]);
  }

  /** Whether VS Code trusts the window's folders. */
  trustChanged(trusted: boolean): Promise<void> {
    return this.#apply(this.options.folders().map((workspace) => ({ target: { workspace, switch: 'untrusted' }, on: !trusted })));
  }

  /** Disconnect (`true`: the hook processes are stopped in any case) or Connect of the agents for `endpoints`. */
  endpointRevoked(endpoints: readonly string[], revoked: boolean): Promise<void> {
    const valid = endpoints.filter((endpoint) => normaliseEndpoint(endpoint) !== undefined);
    return this.#apply(
      valid.map((endpoint) => ({ target: { endpoint, switch: 'revoked' }, on: revoked })),
      revoked,
    );
  }

  /** Resolves once every write asked for so far is done (never rejects): nothing writes the state folder after it. */
  settled(): Promise<void> {
    return this.#queue.then(() => undefined);
  }

  #apply(changes: ReadonlyArray<{ readonly target: SwitchTarget; readonly on: boolean }>, stopAnyway = false): Promise<void> {
    const run = async (): Promise<void> => {
      if (changes.length === 0 && !stopAnyway) return;
      const stateDirectory = await sharedStateDirectory(this.options.environment);
      const switches = FileMemorySwitches.inStateFolder(stateDirectory);
      let closed = false;
      for (const change of changes) {
        if (change.on) closed = (await switches.mark(change.target, SWITCHED_BY)) || closed;
        else await switches.clear(change.target);
      }
      // Newly off: the hooks' background processes must not go on serving or sending.
      if (closed || stopAnyway) await (this.options.stop ?? stopHookProcesses)(this.options.environment, stateDirectory);
    };
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

/** The entry's way in (through the runtime bundle, without starting the runtime): never rejects. */
export async function recordWorkspaceTrust(trusted: boolean, folders: readonly string[]): Promise<void> {
  await new MemorySwitchRecorder({ environment: process.env, folders: () => folders }).trustChanged(trusted).catch(() => undefined);
}
