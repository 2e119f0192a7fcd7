// Activates the extension against the `vscode` double, with an emulator as Graphiti: what every
// contribution test starts from. Timings are shortened and the agents' home is a temporary folder;
// nothing else is replaced.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ingestion, IngestionOptions } from '@graphiti-memory/memory-core';
import { startEmulator, type RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import type { Container } from 'inversify';
import * as vscode from 'vscode';
import { AgentHookPlaces } from '../agent-hooks/agent-hook-places.js';
import { CaptureTiming } from '../capture/capture-contribution.js';
import { SmokeTestTiming } from '../commands/test-connection-command.js';
import { HealthProbeTiming } from '../status/health-probe.js';
import { MemorySwitchRecorder, recordWorkspaceTrust } from '../consent/memory-switch-recorder.js';
import { startMemoryRuntime } from '../composition/start-memory-runtime.js';
import { activateEntry, type GraphitiMemoryApi } from '../entry/activate-entry.js';
import { createExtensionContext, presetSettings, testHost, windowRegistry, type ExtensionContextDouble } from './vscode-double.js';
import { tracked } from './harness-registry.js';

export interface Harness {
  readonly emulator: RunningEmulator;
  readonly context: ExtensionContextDouble;
  /** The runtime's container; reading it loads the runtime, as a command would. */
  readonly container: Container;
  /** The state folder shared with the harness and hooks (`GRAPHITI_MEMORY_STATE_DIR` while this harness runs). */
  readonly stateDirectory: string;
  /** Where Connect installs in this test (temporary folders). */
  readonly agentHookPlaces: AgentHookPlaces;
  /** What `activate` returned. */
  readonly api: GraphitiMemoryApi;
  /** Whether the memory runtime has been loaded. */
  runtimeLoaded(): boolean;
  /** Runs a command as VS Code would. */
  command<T = unknown>(id: string, ...args: unknown[]): Promise<T>;
  /** Ingestion (memory-core's one binding), with what was staged so far handed to its outbox. */
  ingestion(): Promise<Ingestion>;
  /** Requests the emulator received, except health checks. */
  dataRequests(): RunningEmulator['requests'];
  logText(): string;
  dispose(): Promise<void>;
}

/** Temporary places for Connect: the agents' home, the user config folder, a bundled runner path. */
function temporaryAgentHookPlaces(): AgentHookPlaces {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-home-'));
  return {
    home,
    // Never the real state folder either: Connect and Disconnect write the shared memory switches there.
    environment: { GRAPHITI_MEMORY_CONFIG_DIR: path.join(home, 'config'), GRAPHITI_MEMORY_STATE_DIR: path.join(home, 'state') },
    bundledRunner: path.join(home, 'extension', 'dist', 'hook-runner.cjs'),
    version: '1.2.3',
    runtime: { path: process.execPath, environment: {} },
  };
}

export interface HarnessOptions {
  /** Settings before activation; the endpoint defaults to the emulator's URL. */
  readonly settings?: Record<string, unknown>;
  /** Consent for the emulator's endpoint before activation. */
  readonly consented?: boolean;
  readonly trusted?: boolean;
  readonly workspaceFolder?: string;
  readonly emulator?: Parameters<typeof startEmulator>[0];
  /** The state folder shared with the harness and hooks; default: a fresh one for this harness. */
  readonly stateDirectory?: string;
}

export async function activateExtension(options: HarnessOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ quiet: true, processingDelayMs: 5, ...options.emulator });
  // Never the real home: Connect and Show Status read and write the agents' hook files there.
  const agentHookPlaces = temporaryAgentHookPlaces();
  // Each harness its own shared state (audit log, pending memories, registry), unless a test shares one.
  const stateDirectory = options.stateDirectory ?? fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-memory-state-'));
  const previousStateDirectory = process.env['GRAPHITI_MEMORY_STATE_DIR'];
  process.env['GRAPHITI_MEMORY_STATE_DIR'] = stateDirectory;
  const context = createExtensionContext();
  const host = testHost();
  host.trusted = options.trusted ?? true;
  host.workspaceFolders = [{ uri: vscode.Uri.file(options.workspaceFolder ?? '/work/project'), name: 'project', index: 0 }];
  presetSettings({ 'graphitiMemory.endpoint': emulator.url, ...options.settings });
  if (options.consented) {
    await context.workspaceState.update('graphitiMemory.consent', { endpoint: emulator.url, grantedAt: new Date().toISOString() });
  }
  let loaded: Container | undefined;
  const api = activateEntry(context.context, {
    // The runtime module from source, as dist/runtime.cjs would provide it; timings shortened.
    loadRuntime: () => ({
      recordWorkspaceTrust,
      startMemoryRuntime: (runtimeOptions) => {
        const runtime = startMemoryRuntime({
          ...runtimeOptions,
          configure: (container) => {
            shortenTimings(container);
            container.rebindSync(AgentHookPlaces).toConstantValue(agentHookPlaces);
          },
        });
        loaded = runtime.container;
        return runtime;
      },
    }),
  });
  const container = (): Container => {
    if (loaded === undefined) api.status();
    if (loaded === undefined) throw new Error('harness: the memory runtime did not load');
    return loaded;
  };
  return tracked({
    emulator,
    context,
    stateDirectory,
    agentHookPlaces,
    get container() {
      return container();
    },
    api,
    runtimeLoaded: () => loaded !== undefined,
    command: async <T>(id: string, ...args: unknown[]) => await vscode.commands.executeCommand<T>(id, ...args),
    async ingestion() {
      const ingestion = container().get<Ingestion>(Ingestion);
      await ingestion.settled();
      return ingestion;
    },
    dataRequests: () => emulator.requests.filter((request) => request.path !== '/healthcheck'),
    logText: () => windowRegistry().outputChannels.map((output) => output.text()).join('\n'),
    async dispose() {
      await context.dispose();
      // The window's switch writes run one after another: the last may still be writing the state folder.
      if (loaded !== undefined) await loaded.get(MemorySwitchRecorder).settled();
      await emulator.close();
      // A user-key lookup still writing the user config may race the removal: retry.
      fs.rmSync(agentHookPlaces.home, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      if (process.env['GRAPHITI_MEMORY_STATE_DIR'] === stateDirectory) {
        if (previousStateDirectory === undefined) delete process.env['GRAPHITI_MEMORY_STATE_DIR'];
        else process.env['GRAPHITI_MEMORY_STATE_DIR'] = previousStateDirectory;
      }
      if (options.stateDirectory === undefined) fs.rmSync(stateDirectory, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    },
  });
}

function shortenTimings(container: Container): void {
  container.rebindSync(SmokeTestTiming).toConstantValue({ pollIntervalMs: 20, timeoutMs: 2000 });
  container.rebindSync(HealthProbeTiming).toConstantValue({ firstDelayMs: 50, maxDelayMs: 200, timeoutMs: 1000 });
  container.rebindSync(CaptureTiming).toConstantValue({ vscodeChatIdleMs: 50, claudeCodeIdleMs: 150, debounceMs: 20, folderCheckMs: 60_000 });
  container.bind(IngestionOptions).toConstantValue({ idleRecheckMs: 50, pollIntervalMs: 20, maxPollIntervalMs: 100, retryDelayMs: 20, maxRetryDelayMs: 100 });
}

/** Polls `predicate` until it holds (or fails the test after `timeoutMs`). */
export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`waitFor: ${what} did not hold within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
