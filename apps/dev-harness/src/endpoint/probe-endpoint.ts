// The one check that an endpoint is a working Graphiti, as `health` runs it and `setup` and `hooks
// install` run it before they point anything there: which face answers (REST or MCP), whether it
// says it is healthy, and whether /episodes reaches its graph database. Read-only.
import { randomBytes } from 'node:crypto';
import { createGraphitiClient, type GraphitiApi, type ServerFace } from '@graphiti-memory/graphiti-client';
import type { CommandContext } from '../cli/command-runner.js';
import type { HarnessError } from '../cli/harness-errors.js';
import { describeGraphitiFailure } from '../terminal/describe-error.js';
import { HARNESS_MAX_RETRIES, HARNESS_USER_AGENT } from './open-graphiti.js';

export interface HealthCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly latencyMs: number;
  readonly detail?: string;
}

export type EndpointProbe =
  /** Something answered as Graphiti: `ok` when every check passed. */
  | { readonly reachable: true; readonly ok: boolean; readonly face: ServerFace; readonly status: string; readonly checks: readonly HealthCheck[]; readonly warnings: readonly string[] }
  /** Nothing answered, or what answered is not Graphiti: `failure` says which, at which URL, and what to try. */
  | { readonly reachable: false; readonly ok: false; readonly failure: HarnessError };

export interface ProbeSettings {
  readonly timeoutMs: number;
  readonly apiKeyGiven: boolean;
}

/** Probes Graphiti at `url` through `client` (whose face choice it triggers); never throws. */
export async function probeEndpoint(client: GraphitiApi, url: string, settings: ProbeSettings): Promise<EndpointProbe> {
  const context = { apiKeyGiven: settings.apiKeyGiven };
  let started = performance.now();
  let status: string;
  let face: ServerFace;
  try {
    face = await client.serverFace({ maxRetries: 0 });
    status = (await client.healthcheck({ maxRetries: 0 })).status;
  } catch (error) {
    return { reachable: false, ok: false, failure: describeGraphitiFailure(error, url, 'Health check', settings.timeoutMs, context) };
  }
  const warnings: string[] = [];
  const checks: HealthCheck[] = [];
  const healthRoute = face.kind === 'mcp' ? '/health and get_status' : '/healthcheck';
  checks.push({ name: 'healthcheck', ok: status === 'healthy', latencyMs: elapsed(started), detail: `${face.kind.toUpperCase()} server, status "${status}" (${face.reason})` });
  if (status !== 'healthy') warnings.push(`${healthRoute} answered status "${status}", not "healthy".`);

  // /episodes reaches the graph database without calling the model provider: a cheap deeper probe.
  const probeGroup = `graphiti-harness-probe-${randomBytes(6).toString('hex')}`;
  started = performance.now();
  try {
    const episodes = await client.getEpisodes(probeGroup, { lastN: 1 }, { maxRetries: 0 });
    checks.push({ name: 'episodes', ok: true, latencyMs: elapsed(started), detail: `${episodes.length} episodes in an unused group` });
  } catch (error) {
    const failure = describeGraphitiFailure(error, url, 'Reading /episodes', settings.timeoutMs, context);
    checks.push({ name: 'episodes', ok: false, latencyMs: elapsed(started), detail: failure.message });
    warnings.push(`${failure.message} The service is up but its graph database may not be.`);
  }
  return { reachable: true, ok: checks.every((check) => check.ok), face, status, checks, warnings };
}

/** `probeEndpoint` for a URL the command has not opened (`setup`, `hooks install`): a client of its own, closed after. */
export async function probeUrl(context: CommandContext, url: string): Promise<EndpointProbe> {
  const { options } = context;
  const client = createGraphitiClient({
    kind: options.server,
    baseUrl: url,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    timeoutMs: options.timeoutMs,
    maxRetries: HARNESS_MAX_RETRIES,
    userAgent: HARNESS_USER_AGENT,
  });
  try {
    return await probeEndpoint(client, url, { timeoutMs: options.timeoutMs, apiKeyGiven: options.apiKey !== undefined });
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** One line for a probe: what answered, or why nothing usable did. */
export function probeSummary(probe: EndpointProbe): string {
  if (!probe.reachable) return probe.failure.message;
  const faceName = probe.face.kind === 'mcp' ? 'Graphiti MCP server' : 'Graphiti REST service';
  return probe.ok ? `${faceName}, healthy` : `${faceName}, not healthy: ${probe.warnings.join(' ')}`;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
