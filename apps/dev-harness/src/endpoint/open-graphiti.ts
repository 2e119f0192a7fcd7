// Opens the endpoint (or the in-process emulator) and a client for it, closed with the command.
import { createGraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import type { CommandContext } from '../cli/command-runner.js';
import { resolveEndpoint, type EmulatorSettings, type ResolvedEndpoint } from './resolve-endpoint.js';

export interface GraphitiSession {
  readonly endpoint: ResolvedEndpoint;
  /** Speaks the face chosen with --server (`auto`: probed on the first call; see `serverFace()`). */
  readonly client: GraphitiApi;
}

/** Retries per request: one, so a flaky network is tolerated but a dead server fails fast. */
export const HARNESS_MAX_RETRIES = 1;

const USER_AGENT = 'graphiti-harness';

export async function openGraphiti(context: CommandContext, emulatorSettings: EmulatorSettings = {}): Promise<GraphitiSession> {
  const { server } = context.options;
  const endpoint = await resolveEndpoint(context.options.endpoint, context.output, {
    ...emulatorSettings,
    ...(server === 'mcp' ? { face: 'mcp' } : {}),
  });
  context.defer(() => endpoint.close());
  const client = createGraphitiClient({
    kind: server,
    baseUrl: endpoint.url,
    ...(context.options.apiKey === undefined ? {} : { apiKey: context.options.apiKey }),
    timeoutMs: context.options.timeoutMs,
    maxRetries: HARNESS_MAX_RETRIES,
    userAgent: USER_AGENT,
  });
  context.defer(() => client.close());
  return { endpoint, client };
}
