// `graphiti-harness migrate`: carries an existing install's memory over to the private groups of
// issue 21. Before it, the workspace group came from the repository alone (everyone on one server
// shared it) and a session group from the session id alone. migrate finds this workspace's old
// groups (the old workspace group, and the session groups the registry knows that ran in it),
// copies into the new private groups the episodes this machine delivered there (recognised by the
// local delivery ledger, so a teammate's chat in a shared old group is never copied), re-sent
// through the outbox and confirmed; with --delete-old it then deletes the old groups.
import {
  deliveryKey,
  IngestionStorage,
  legacySessionGroupId,
  legacyWorkspaceGroupId,
  WorkspaceContext,
  type OutboxEntry,
} from '@graphiti-memory/memory-core';
import type { Message } from '@graphiti-memory/graphiti-client';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError, UsageError } from '../cli/harness-errors.js';
import { openHarnessMemory, type HarnessMemory } from '../composition/harness-container.js';
import { waitForDelivery } from '../delivery/wait-for-delivery.js';
import type { CommandRegistrar } from './command-registrar.js';

interface MigrateOptions extends RawCommonOptions {
  readonly dryRun?: boolean;
  readonly deleteOld?: boolean;
  readonly yes?: boolean;
}

/** Episodes of one old group read (oldest first on REST): more than any chat history we kept. */
const LISTING = 10_000;
const WAIT_SECONDS = 300;
/** `"{role or ''}({role_type}): {content}"`: how both faces store a message. */
const STORED_MESSAGE = /^([^\n(]*)\((user|assistant|system)\): ([\s\S]*)$/;

interface Move {
  readonly scope: 'workspace' | 'session';
  readonly from: string;
  readonly to: string;
  readonly sessionId?: string;
}

export const registerMigrateCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('migrate')
        .description("copy this workspace's memory from the old shared groups into your private groups (issue 21)")
        .option('--dry-run', 'list the old groups and what would be copied; send and delete nothing')
        .option('--delete-old', 'after copying, delete the old groups (on a shared server this removes what teammates stored there too)')
        .option('-y, --yes', 'do not ask before --delete-old (needed when not on a terminal)')
        .addHelpText(
          'after',
          [
            '',
            'Only episodes this machine delivered (found in its delivery ledger) are copied, with their',
            'names and times: a teammate\'s chat in a shared old group is never copied into yours.',
            'Graphiti extracts facts again from the copies (one LLM round per episode).',
            '',
            'Examples:',
            '  graphiti-harness migrate --dry-run --endpoint http://localhost:8000',
            '  graphiti-harness migrate --endpoint http://localhost:8000 --delete-old',
          ].join('\n'),
        ),
    ).action((raw: MigrateOptions) => run(raw, (context) => migrate(context, raw))),
  );
};

async function migrate(context: CommandContext, raw: MigrateOptions): Promise<ExitCode> {
  const { output, terminal, options } = context;
  const interactive = terminal.stdin.isTTY === true && terminal.stderr.isTTY === true && !options.json;
  if (raw.deleteOld === true && raw.dryRun !== true && raw.yes !== true && !interactive) {
    throw new UsageError('--delete-old deletes the old groups and needs confirmation: pass --yes when not running on a terminal.');
  }
  const memory = await openHarnessMemory(context);
  const moves = await plannedMoves(memory);
  if (moves.length === 0) {
    output.result({ ok: true, dryRun: raw.dryRun === true, groups: [] });
    output.line('Nothing to migrate: this workspace has no old group (or no git remote or folder to find it by).');
    await memory.close();
    return ExitCode.ok;
  }
  const ledger = (await memory.container.get<IngestionStorage>(IngestionStorage).open()).ledger;
  const report: Array<Move & { readonly episodes: number; readonly mine: number; readonly error?: string }> = [];
  const entries: OutboxEntry[] = [];
  for (const move of moves) {
    try {
      const episodes = await memory.client.getEpisodes(move.from, { lastN: LISTING });
      const mine = episodes.filter((episode) => ledger.has(deliveryKey(move.from, episode.name)));
      for (const episode of mine) {
        const message = messageOf(episode);
        if (message !== undefined) entries.push({ groupId: move.to, message });
      }
      report.push({ ...move, episodes: episodes.length, mine: mine.length });
    } catch (error) {
      report.push({ ...move, episodes: 0, mine: 0, error: error instanceof Error ? error.message : String(error) });
    }
  }
  for (const line of report) {
    output.line(
      `  ${line.scope.padEnd(9)} ${line.from} → ${line.to}: ${line.error === undefined ? `${line.mine} of ${line.episodes} episodes are yours` : `listing failed (${line.error})`}`,
    );
  }
  if (raw.dryRun === true) {
    output.result({ ok: true, dryRun: true, groups: report, copy: entries.length });
    output.line(`Dry run: ${entries.length} episodes would be copied${raw.deleteOld === true ? ' and the old groups deleted' : ''}; nothing was sent.`);
    await memory.close();
    return ExitCode.ok;
  }
  let confirmed = true;
  if (entries.length > 0) {
    memory.ingestion.start();
    memory.ingestion.enqueueEntries(entries);
    confirmed = (await waitForDelivery(memory.ingestion, { until: 'confirmed', timeoutMs: WAIT_SECONDS * 1000, output, terminal })).complete;
  }
  const deleted: string[] = [];
  const failedListing = report.some((line) => line.error !== undefined);
  if (raw.deleteOld === true) {
    if (!confirmed || failedListing) {
      await memory.close();
      throw new HarnessError('the copies are not all confirmed stored, so the old groups were kept.', { hint: 'Run graphiti-harness migrate --delete-old again later.' });
    }
    const agreed =
      raw.yes === true ||
      (await output.confirm(`Delete ${moves.length} old groups at ${memory.endpoint.label}? On a shared server this removes what teammates stored there too.`));
    if (agreed) {
      for (const move of moves) {
        await memory.client.deleteGroup(move.from, { timeoutMs: options.timeoutMs });
        deleted.push(move.from);
      }
      await memory.registry?.remove(deleted);
    }
  }
  await memory.close();
  output.result({ ok: confirmed, dryRun: false, groups: report, copied: entries.length, deletedGroups: deleted });
  output.line(`${confirmed ? output.colors.green('✔') : output.colors.yellow('!')} ${entries.length} episodes copied into your private groups${confirmed ? '' : ' (not all confirmed yet)'}`);
  for (const groupId of deleted) output.line(`${output.colors.green('✔')} deleted old group ${groupId}`);
  return confirmed ? ExitCode.ok : ExitCode.failure;
}

/** This workspace's old workspace group and the old session groups that ran in it, with their new ids. */
async function plannedMoves(memory: HarnessMemory): Promise<Move[]> {
  const strategy = memory.configuration.current().groupIdStrategy;
  const workspace = memory.container.get<WorkspaceContext>(WorkspaceContext);
  const oldWorkspace = await legacyWorkspaceGroupId(strategy, { gitRemote: workspace.gitRemote(), folderUris: workspace.folderUris() });
  const newWorkspace = await memory.groups.resolve('workspace');
  if (oldWorkspace === undefined || newWorkspace === undefined) return [];
  const moves: Move[] = oldWorkspace === newWorkspace ? [] : [{ scope: 'workspace', from: oldWorkspace, to: newWorkspace }];
  for (const record of (await memory.registry?.list()) ?? []) {
    if (record.scope !== 'session' || record.sessionId === undefined || record.workspaceKey !== oldWorkspace) continue;
    const from = await legacySessionGroupId(strategy, record.sessionId);
    const to = await memory.groups.resolve('session', { sessionId: record.sessionId });
    if (from === record.groupId && to !== undefined && to !== from) moves.push({ scope: 'session', from, to, sessionId: record.sessionId });
  }
  return moves;
}

/** The message an episode was sent as (name, time, role and text), or `undefined` for one we cannot read back. */
function messageOf(episode: { name: string; content: string; valid_at?: string | null; created_at: string; source_description?: string }): Message | undefined {
  const match = STORED_MESSAGE.exec(episode.content);
  if (match === null || episode.name === '') return undefined;
  const [, role = '', roleType, content = ''] = match;
  return {
    content,
    role_type: roleType as Message['role_type'],
    role: role === '' ? null : role,
    name: episode.name,
    timestamp: episode.valid_at ?? episode.created_at,
    source_description: episode.source_description ?? '',
  };
}
