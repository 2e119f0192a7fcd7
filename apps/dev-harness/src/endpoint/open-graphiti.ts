// Opens the endpoint (or the in-process emulator) and a client for it, closed with the command.
// Commands that keep state may let `auto` start from the face the endpoint answered with before
// (the record every tool shares, see agent-hooks' rememberedFace) instead of probing each time.
import { NO_REMEMBERED_FACE, rememberedFace, type RememberedFace } from '@graphiti-memory/agent-hooks';
import { createGraphitiClient, type GraphitiApi } from '@graphiti-memory/graphiti-client';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import type { CommandContext } from '../cli/command-runner.js';
import { resolveEndpoint, type EmulatorSettings, type ResolvedEndpoint } from './resolve-endpoint.js';

export interface GraphitiSession {
  readonly endpoint: ResolvedEndpoint;
  /** Speaks the face chosen with --server (`auto`: probed on the first call; see `serverFace()`). */
  readonly client: GraphitiApi;
  /** The endpoint's remembered face in use (nothing for the emulator, explicit faces, or when not asked for). */
  readonly face: RememberedFace;
}

/** Retries per request: one, so a flaky network is tolerated but a dead server fails fast. */
export const HARNESS_MAX_RETRIES = 1;

export const HARNESS_USER_AGENT = 'graphiti-harness';

/**
 * `faceState`: the state folder whose record of the endpoint's face to use and update, or
 * `undefined` for none (the default: `health` and `smoke` find the face out each time).
 */
export async function openGraphiti(
  context: CommandContext,
  emulatorSettings: EmulatorSettings = {},
  faceState: (endpoint: ResolvedEndpoint) => string | undefined = () => undefined,
): Promise<GraphitiSession> {
  const { server } = context.options;
  const endpoint = await resolveEndpoint(context.options.endpoint, context.output, {
    ...emulatorSettings,
    ...(server === 'mcp' ? { face: 'mcp' } : {}),
  });
  context.defer(() => endpoint.close());
  const stateDirectory = endpoint.emulator === undefined ? faceState(endpoint) : undefined;
  const face = stateDirectory === undefined ? NO_REMEMBERED_FACE : await rememberedFace(server, stateDirectory, normaliseEndpoint(endpoint.url) ?? endpoint.url);
  const client = createGraphitiClient({
    kind: server,
    baseUrl: endpoint.url,
    ...(context.options.apiKey === undefined ? {} : { apiKey: context.options.apiKey }),
    timeoutMs: context.options.timeoutMs,
    maxRetries: HARNESS_MAX_RETRIES,
    userAgent: HARNESS_USER_AGENT,
    ...face.clientOptions,
  });
  context.defer(async () => {
    await client.close();
    await face.settled();
  });
  return { endpoint, client, face };
}
