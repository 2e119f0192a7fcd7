// `graphiti-harness audit [--since WHEN] [--endpoint URL] [--json]`: what left this machine — every
// request of every tool (the extension, the harness, agent hooks) that carried memory content or a
// query, with time, tool, endpoint, face, operation, groups, episode names, size and redactions.
// Reads the shared audit log only; it never contacts an endpoint (`--endpoint` only filters).
import { digestWritersText, isTeamGroupId, type AuditEntry } from '@graphiti-memory/memory-core';
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
        .description('show what every tool sent off this machine (metadata only, never content); --endpoint filters by endpoint')
        .option('--since <when>', 'only since this time: an ISO date/time, or an age such as 30m, 12h, 7d')
        .addHelpText(
          'after',
          [
            '',
            'Examples:',
            '  graphiti-harness audit --since 24h',
            '  graphiti-harness audit --endpoint http://localhost:8000 --since 7d',
            '  graphiti-harness audit --since 2026-11-01 --json',
          ].join('\n'),
        ),
    ).action((raw: AuditOptions) => run(raw, (context) => audit(context, raw), { salvageConfig: true })),
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
  // `--endpoint` (already validated as a URL) selects that endpoint's requests, however it is spelt.
  const endpoint = options.endpoint;
  const log = new FileAuditLog({ filePath: sharedStateFiles(options.stateDir).auditLog, logger: harnessLogger(terminal.env, terminal.stderr) });
  const entries = await log.read({ ...(since === undefined ? {} : { since }), ...(endpoint === undefined ? {} : { endpoint }) });
  const bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  output.result({ ok: true, entries, requests: entries.length, bytes });
  if (entries.length === 0) {
    output.line(`Nothing was sent${endpoint === undefined ? '' : ` to ${endpoint}`}${since === undefined ? '' : ` since ${new Date(since).toISOString()}`}.`);
  }
  for (const entry of entries) output.line(describeEntry(entry));
  if (entries.length > 0) output.line(`${entries.length} requests, ${bytes} bytes`);
  return ExitCode.ok;
}

/** One line per request: when, which tool, where and how, to which groups, how much. */
export function describeEntry(entry: AuditEntry): string {
  const redacted = entry.redactions > 0 ? `, ${entry.redactions} redacted` : '';
  const what =
    entry.kind === 'search'
      ? `a query of ${entry.bytes} bytes`
      : `${entry.episodeNames.length} ${entry.kind === 'promotion' ? 'promotions' : entry.kind === 'mirror' ? 'mirror writes' : 'messages'}, ${entry.bytes} bytes`;
  const groups = entry.groupIds.length === 1 ? `group ${entry.groupIds[0]}` : `groups ${entry.groupIds.join(', ')}`;
  const how = entry.face === undefined ? entry.operation : `${entry.face} ${entry.operation}`;
  // A team group is read by everyone on the server in the repository: say so on every write there.
  const team = entry.kind !== 'search' && entry.groupIds.some(isTeamGroupId) ? '  [team: shared]' : '';
  const digests = digestWritersText(entry);
  return `${entry.at}  ${entry.tool ?? 'unknown tool'}  ${how} ${entry.endpoint}  ${groups}  ${what}${digests === '' ? '' : ` (${digests})`}${redacted}${team}`;
}
