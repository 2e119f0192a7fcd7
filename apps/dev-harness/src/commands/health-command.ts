// `graphiti-harness health`: a read-only check that the endpoint is a working Graphiti (the probe
// `setup` and `hooks install` run too).
import { sanitiseReadableLine } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode } from '../cli/harness-errors.js';
import { openGraphiti } from '../endpoint/open-graphiti.js';
import { probeEndpoint } from '../endpoint/probe-endpoint.js';
import type { CommandRegistrar } from './command-registrar.js';


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
  const probe = await probeEndpoint(client, endpoint.url, { timeoutMs: options.timeoutMs, apiKeyGiven: options.apiKey !== undefined });
  if (!probe.reachable) throw probe.failure;
  const { face, status, checks } = probe;
  const warnings = [...probe.warnings];
  if (endpoint.emulator !== undefined) warnings.push('This is the in-process emulator, not Graphiti: pass --endpoint URL to check a real server.');

  const { ok } = probe;
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
