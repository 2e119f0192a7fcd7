// `graphiti-harness health`: a read-only check that the endpoint is a working Graphiti.
import { randomBytes } from 'node:crypto';
import type { ServerFace } from '@graphiti-memory/graphiti-client';
import { sanitiseReadableLine } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode } from '../cli/harness-errors.js';
import { openGraphiti } from '../endpoint/open-graphiti.js';
import { describeGraphitiFailure } from '../terminal/describe-error.js';
import type { CommandRegistrar } from './command-registrar.js';

export interface HealthCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly latencyMs: number;
  readonly detail?: string;
}

export const registerHealthCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('health')
        .description('check that the endpoint answers like Graphiti, REST or MCP, and say which (read-only: health and episodes)')
        .addHelpText('after', '\nExamples:\n  graphiti-harness health\n  graphiti-harness health --endpoint http://localhost:8000 --json'),
    ).action((raw: RawCommonOptions) => run(raw, health)),
  );
};

async function health(context: CommandContext): Promise<ExitCode> {
  const { output, options } = context;
  const { endpoint, client } = await openGraphiti(context);
  const warnings: string[] = [];
  const checks: HealthCheck[] = [];

  let started = performance.now();
  let status: string;
  let face: ServerFace;
  try {
    face = await client.serverFace({ maxRetries: 0 });
    status = (await client.healthcheck({ maxRetries: 0 })).status;
  } catch (error) {
    throw describeGraphitiFailure(error, endpoint.url, 'Health check', options.timeoutMs, { apiKeyGiven: options.apiKey !== undefined });
  }
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
    const failure = describeGraphitiFailure(error, endpoint.url, 'Reading /episodes', options.timeoutMs, { apiKeyGiven: options.apiKey !== undefined });
    checks.push({ name: 'episodes', ok: false, latencyMs: elapsed(started), detail: failure.message });
    warnings.push(`${failure.message} The service is up but its graph database may not be.`);
  }
  if (endpoint.emulator !== undefined) warnings.push('This is the in-process emulator, not Graphiti: pass --endpoint URL to check a real server.');

  const ok = checks.every((check) => check.ok);
  output.result({ ok, endpoint: endpoint.url, emulator: endpoint.emulator !== undefined, server: face.kind, status, checks, warnings });
  output.line(`${ok ? output.colors.green('✔ healthy') : output.colors.red('✘ unhealthy')}  ${endpoint.label}  (${face.kind === 'mcp' ? 'MCP server' : 'REST service'})`);
  // Details and warnings quote the server (its status, its error bodies): printed only sanitised.
  for (const check of checks) {
    const mark = check.ok ? output.colors.green('✔') : output.colors.red('✘');
    output.line(`  ${mark} ${check.name.padEnd(12)} ${String(check.latencyMs).padStart(5)} ms  ${sanitiseReadableLine(check.detail ?? '')}`);
  }
  for (const warning of warnings) output.warn(sanitiseReadableLine(warning));
  return ok ? ExitCode.ok : ExitCode.failure;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
