// `graphiti-harness edit EPISODE_UUID "new text"`: supersedes a curated memory (memory-core's
// `MemoryEditing`): the new version is promoted as `promote` does (secret guard, scopes, local
// tier), then the old episode is forgotten with the facts only it supports. Graphiti sees a new
// episode in the same group and the old one deleted.
import { sanitiseReadableLine, sourceForgetSummary, TEAM_AUDIENCE, type MemoryEditOutcome } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError, UsageError } from '../cli/harness-errors.js';
import { parseSeconds, parseText } from '../cli/option-parsers.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { deliveryCounts, waitForDelivery } from '../delivery/wait-for-delivery.js';
import { describeGraphitiFailure } from '../terminal/describe-error.js';
import type { CommandRegistrar } from './command-registrar.js';

interface EditOptions extends RawCommonOptions {
  readonly group?: string;
  readonly wait?: string;
}

const DEFAULT_EDIT_WAIT_SECONDS = 60;

export const registerEditCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('edit')
        .description('change a curated memory: the new text replaces it (a new episode is promoted, the old one forgotten with the facts only it supports)')
        .argument('<episode-uuid>', 'the memory\'s episode uuid (graphiti-harness episodes --json, recall --json sources[].episode)')
        .argument('<text>', 'the new text, in quotes; a directive line ("preference (user): …") also changes the kind and scope')
        .option('--group <group-id>', 'the episode\'s group, when this machine did not send it')
        .option('--wait <seconds>', `how long to wait until the new version is stored (default ${DEFAULT_EDIT_WAIT_SECONDS})`)
        .addHelpText(
          'after',
          [
            '',
            'Graphiti cannot change an episode: the edit promotes the new text as a new episode in the same group',
            '(the same checks as promote: a secret refuses it and nothing changes), then deletes the old episode',
            'and the facts only it supports. Recall and every brief show only the new version.',
            '--json prints { "ok", "episode", "status", "previous": { kind, scope, text, groupId }, "kind", "scope",',
            '"groupId", "name", "deletedFacts", ... }.',
            '',
            'Examples:',
            '  graphiti-harness edit 3f2a9c01-… "We deploy with Fly.io, not Heroku."',
            '  graphiti-harness edit 3f2a9c01-… "preference (user): short answers" --json',
          ].join('\n'),
        ),
    ).action((episode: string, text: string, raw: EditOptions) => run(raw, (context) => edit(context, episode, text, raw))),
  );
};

async function edit(context: CommandContext, uuid: string, rawText: string, raw: EditOptions): Promise<ExitCode> {
  const { output, options, terminal } = context;
  const episode = uuid.trim();
  if (!/^[\w-]{1,100}$/.test(episode)) throw new UsageError(`EPISODE_UUID must be an episode's uuid (graphiti-harness episodes --json lists them); got "${uuid.slice(0, 100)}".`);
  const text = parseText(rawText, 'TEXT');
  const waitSeconds = raw.wait === undefined ? DEFAULT_EDIT_WAIT_SECONDS : parseSeconds(raw.wait, '--wait');
  const memory = await openHarnessMemory(context);
  memory.ingestion.start();
  let outcome: MemoryEditOutcome;
  try {
    outcome = await memory.editing.edit({ episode, text, ...(raw.group === undefined ? {} : { groupId: raw.group }), callOptions: { timeoutMs: options.timeoutMs } });
  } catch (error) {
    throw describeGraphitiFailure(error, memory.endpoint.url, 'Reading the memory to edit', options.timeoutMs);
  }
  const failure = editFailure(outcome);
  if (failure !== undefined) throw failure;
  if (outcome.status !== 'edited' && outcome.status !== 'old-kept') throw new HarnessError(`the memory ${episode} was not edited (${outcome.status}).`);
  const delivery = await waitForDelivery(memory.ingestion, { until: 'confirmed', timeoutMs: waitSeconds * 1000, output, terminal });
  await memory.close();
  const stored = delivery.complete && deliveryCounts(delivery.stats).deadLettered === 0;
  const edited = outcome.status === 'edited';
  const previous = { kind: outcome.previous.kind, scope: outcome.previous.scope, text: outcome.previous.text, groupId: outcome.previous.groupId };
  output.result({
    ok: edited && stored,
    episode,
    status: outcome.status,
    previous,
    kind: outcome.kind,
    scope: outcome.scope,
    groupId: outcome.groupId,
    name: outcome.episodeName,
    stored,
    ...(outcome.status === 'edited'
      ? { deletedEpisodes: outcome.forgotten.episodes, deletedFacts: outcome.forgotten.deletedFacts ?? null, keptFacts: outcome.forgotten.keptFacts }
      : { error: { errorClass: outcome.errorClass, message: outcome.message } }),
  });
  if (outcome.status === 'edited') {
    output.line(`${output.colors.green('✔')} edited the ${outcome.kind} (${outcome.scope}): the new version is ${stored ? 'stored' : 'queued'}; the old one is ${sourceForgetSummary(outcome.forgotten).replace(/^forgot the source: /, 'gone: ')}`);
  } else {
    output.error(
      `the new version is ${stored ? 'stored' : 'queued'}, but the old memory ${episode} could not be deleted (${sanitiseReadableLine(outcome.errorClass)}): ${sanitiseReadableLine(outcome.message)}`,
      `Both exist until it is: run graphiti-harness forget --episode ${episode} --yes once Graphiti answers.`,
    );
  }
  if (!stored) output.error(`the new version was sent, but not confirmed stored within ${waitSeconds} s.`, `Run graphiti-harness episodes --scope ${outcome.scope} later to check.`);
  return edited && stored ? ExitCode.ok : ExitCode.failure;
}

/** The error a refused edit prints (nothing changed then); `undefined` when the memory was superseded. */
function editFailure(outcome: MemoryEditOutcome): HarnessError | undefined {
  const details = { status: outcome.status };
  switch (outcome.status) {
    case 'not-found':
      return new HarnessError(`no episode ${outcome.episode} was found in ${outcome.searched.length === 1 ? 'its group' : 'the workspace, user or team group'}; nothing changed.`, {
        hint: 'Check the uuid (graphiti-harness episodes --scope workspace --json lists them); for a memory another machine sent, pass --group GROUP_ID.',
        details: { ...details, searched: outcome.searched },
      });
    case 'not-curated':
      return new HarnessError(`the episode ${outcome.episode} is not a curated memory (a captured conversation, or written by another client), so it cannot be edited; nothing changed.`, {
        hint: `Forget it with graphiti-harness forget --episode ${outcome.episode}, then promote what should be remembered.`,
        details: { ...details, groupId: outcome.groupId },
      });
    case 'not-yours':
      return new HarnessError(`the team memory ${outcome.previous.episode} was shared by a teammate; only its author can edit it. Nothing changed.`, {
        hint: `Promote your version with graphiti-harness promote "…" --kind ${outcome.previous.kind} --scope team (read by ${TEAM_AUDIENCE}).`,
        details,
      });
    case 'unchanged':
      return new HarnessError('the new text is the memory as it is stored (same kind, scope and text); nothing changed.', { hint: 'Give the text as it should read from now on.', details });
    case 'refused':
      return new HarnessError(`the new text was refused (${refusalWords(outcome.reason)}); the memory stays as it was and nothing was sent.`, {
        hint: outcome.reason === 'secret' ? 'Remove the secret from the text and edit again.' : 'Check the endpoint, consent and scope, then edit again.',
        details: { ...details, reason: outcome.reason },
      });
    default:
      return undefined;
  }
}

function refusalWords(reason: string): string {
  if (reason === 'secret') return 'it holds something that looks like a secret: a key, token or password';
  if (reason === 'team-not-consented') return 'the team scope is not enabled: graphiti-harness team enable';
  if (reason === 'empty') return 'it is empty';
  return reason;
}
