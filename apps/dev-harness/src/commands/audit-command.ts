// `graphiti-harness audit [--since WHEN] [--json]`: what left this machine — every request that
// carried memory content, with time, endpoint, route, group, episode names, size and redactions.
// Reads the local audit log only; it never contacts an endpoint.
import { FileAuditLog, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, UsageError } from '../cli/harness-errors.js';
import { harnessLogger } from '../composition/debug-logger.js';
import type { CommandRegistrar } from './command-registrar.js';

interface AuditOptions extends RawCommonOptions {
  readonly since?: string;
}

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

export const registerAuditCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('audit')
        .description('show what was sent off this machine (metadata only, never content)')
        .option('--since <when>', 'only since this time: an ISO date/time, or an age such as 30m, 12h, 7d')
        .addHelpText('after', ['', 'Examples:', '  graphiti-harness audit --since 24h', '  graphiti-harness audit --since 2026-11-01 --json'].join('\n')),
    ).action((raw: AuditOptions) => run(raw, (context) => audit(context, raw))),
  );
};

/** `--since`: `30m`, `12h`, `7d` before now, or an ISO date/time. */
export function parseSince(value: string, now: number): number {
  const trimmed = value.trim();
  const age = /^(\d+)([mhd])$/.exec(trimmed);
  if (age !== null) return now - Number(age[1]) * (UNIT_MS[age[2] ?? 'h'] ?? 0);
  const at = /^\d{4}-\d{2}-\d{2}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(at)) throw new UsageError(`--since ${JSON.stringify(value)} is not a time; use an ISO date/time (2026-11-01T09:00Z) or an age (30m, 12h, 7d).`);
  return at;
}

async function audit(context: CommandContext, raw: AuditOptions): Promise<ExitCode> {
  const { output, options, terminal } = context;
  const since = raw.since === undefined ? undefined : parseSince(raw.since, Date.now());
  const log = new FileAuditLog({ filePath: sharedStateFiles(options.stateDir).auditLog, logger: harnessLogger(terminal.env, terminal.stderr) });
  const entries = await log.read(since === undefined ? {} : { since });
  const bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  output.result({ ok: true, entries, requests: entries.length, bytes });
  if (entries.length === 0) output.line('Nothing was sent' + (since === undefined ? '.' : ` since ${new Date(since).toISOString()}.`));
  for (const entry of entries) {
    const redacted = entry.redactions > 0 ? `, ${entry.redactions} redacted` : '';
    output.line(`${entry.at}  ${entry.route} ${entry.endpoint}  group ${entry.groupId}  ${entry.episodeNames.length} ${entry.kind === 'promotion' ? 'promotions' : 'messages'}, ${entry.bytes} bytes${redacted}`);
  }
  if (entries.length > 0) output.line(`${entries.length} requests, ${bytes} bytes`);
  return ExitCode.ok;
}
