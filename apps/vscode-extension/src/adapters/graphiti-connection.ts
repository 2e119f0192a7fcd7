// The Graphiti client for the endpoint, server kind, key and timeout in force. A change of any of
// them closes the old client and creates a new one on next use; an invalid or empty endpoint gives
// none. `graphitiMemory.serverKind` (`auto` by default) picks the REST or the MCP face; `auto`
// probes the endpoint on first use.
import { createGraphitiClient, type GraphitiApi as GraphitiClientApi, type GraphitiServerChoice } from '@graphiti-memory/graphiti-client';
import type { GraphitiApi, GraphitiConnection, MemoryConfiguration } from '@graphiti-memory/memory-core';
import type { ApiKeyStore } from './api-key-store.js';

export const USER_AGENT = 'graphiti-memory-vscode';

export class RecreatingGraphitiConnection implements GraphitiConnection {
  #client: GraphitiClientApi | undefined;
  #identity: string | undefined;

  constructor(
    private readonly configuration: MemoryConfiguration,
    private readonly apiKeys: ApiKeyStore,
  ) {}

  current(): GraphitiApi | undefined {
    if (this.configuration.problems().length > 0) return this.#replace(undefined, undefined);
    const settings = this.configuration.current();
    if (settings.endpoint === '') return this.#replace(undefined, undefined);
    const apiKey = this.apiKeys.current();
    const identity = JSON.stringify([settings.endpoint, settings.serverKind, apiKey ?? null, settings.timeoutMs]);
    if (identity === this.#identity && this.#client !== undefined) return this.#client;
    const client = createGraphitiClient({
      kind: settings.serverKind,
      baseUrl: settings.endpoint,
      ...(apiKey === undefined ? {} : { apiKey }),
      timeoutMs: settings.timeoutMs,
      userAgent: USER_AGENT,
    });
    return this.#replace(client, identity);
  }

  dispose(): void {
    this.#replace(undefined, undefined);
  }

  #replace(client: GraphitiClientApi | undefined, identity: string | undefined): GraphitiClientApi | undefined {
    const previous = this.#client;
    this.#client = client;
    this.#identity = identity;
    if (previous !== undefined && previous !== client) void Promise.resolve(previous.close()).catch(() => undefined);
    return client;
  }
}

/**
 * A one-off client for explicit user actions (Test Connection): no retries, so a dead server is
 * reported within one timeout. The caller closes it.
 */
export function createProbeClient(
  endpoint: string,
  apiKey: string | undefined,
  timeoutMs: number,
  kind: GraphitiServerChoice = 'auto',
): GraphitiClientApi {
  return createGraphitiClient({
    kind,
    baseUrl: endpoint,
    ...(apiKey === undefined ? {} : { apiKey }),
    timeoutMs,
    maxRetries: 0,
    userAgent: USER_AGENT,
  });
}
