// `graphiti-harness promote TEXT --kind K --scope S`: a curated memory, sent as a
// `<graphiti_episode>` system message through ingestion (secret guard first: a secret refuses it).
import { PROMOTION_KINDS, TEAM_AUDIENCE } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError, UsageError } from '../cli/harness-errors.js';
import { parseScope, parseSeconds, parseText } from '../cli/option-parsers.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { deliveryCounts, waitForDelivery } from '../delivery/wait-for-delivery.js';
import type { CommandRegistrar } from './command-registrar.js';

interface PromoteOptions extends RawCommonOptions {
  readonly kind?: string;
  readonly scope?: string;
  readonly wait?: string;
}

const DEFAULT_PROMOTE_WAIT_SECONDS = 60;

export const registerPromoteCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('promote')
        .description('remember TEXT as a curated memory (decision, preference, …) in the workspace, user or team scope')
        .argument('<text>', 'the memory, in quotes')
        .requiredOption('--kind <kind>', PROMOTION_KINDS.join(' | '))
        .requiredOption('--scope <scope>', 'workspace | user | team (team: shared with everyone on this server in this repository; needs `team enable`)')
        .option('--wait <seconds>', `how long to wait until it is stored (default ${DEFAULT_PROMOTE_WAIT_SECONDS})`)
        .addHelpText(
          'after',
          [
            '',
            'Text holding a secret (a token, a password) is refused and nothing is sent.',
            '',
            'Examples:',
            '  graphiti-harness promote "We use pnpm, never npm." --kind decision --scope workspace',
            '  graphiti-harness promote "I prefer short answers." --kind preference --scope user --endpoint http://localhost:8000',
            '  graphiti-harness promote "Releases ship on Tuesdays." --kind decision --scope team',
          ].join('\n'),
        ),
    ).action((text: string, raw: PromoteOptions) => run(raw, (context) => promote(context, text, raw))),
  );
};

async function promote(context: CommandContext, text: string, raw: PromoteOptions): Promise<ExitCode> {
  const { output, terminal } = context;
  const body = parseText(text, 'TEXT');
  const kind = raw.kind ?? '';
  if (!(PROMOTION_KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(`--kind ${JSON.stringify(kind)} is not a memory kind; use one of ${PROMOTION_KINDS.join(', ')}.`);
  }
  const scope = parseScope(raw.scope ?? '', ['workspace', 'user', 'team'] as const);
  const waitSeconds = raw.wait === undefined ? DEFAULT_PROMOTE_WAIT_SECONDS : parseSeconds(raw.wait, '--wait');

  const memory = await openHarnessMemory(context);
  memory.ingestion.start();
  // Plans, queues and records it in the local tier: the next SessionStart brief of any tool shows it, even before Graphiti has stored it.
  const plan = await memory.memoryPromotion.promote({ kind, scope, text: body });
  if (!plan.ok) {
    if (plan.reason === 'secret') {
      throw new HarnessError('the text holds something that looks like a secret (a key, token or password); nothing was sent.', {
        hint: 'Remove the secret from the text and promote it again.',
        details: { reason: plan.reason },
      });
    }
    if (plan.reason === 'team-not-consented') {
      throw new HarnessError(`the team scope is not enabled: what you promote there is read by ${TEAM_AUDIENCE}; nothing was sent.`, {
        hint: 'If you agree, run graphiti-harness team enable --yes-share-with-team [--display-name NAME], then promote again.',
        details: { reason: plan.reason },
      });
    }
    if (plan.reason === 'no-scope' && scope === 'team') {
      throw new HarnessError('this workspace has no git remote, so it has no team group (a team is found by its repository\'s remote); nothing was sent.', {
        hint: 'Add a remote (git remote add origin URL) or pass --workspace PATH of a clone that has one.',
        details: { reason: plan.reason },
      });
    }
    throw new HarnessError(`the memory was refused (${plan.reason}); nothing was sent.`, { details: { reason: plan.reason } });
  }
  const outcome = await waitForDelivery(memory.ingestion, { until: 'confirmed', timeoutMs: waitSeconds * 1000, output, terminal });
  await memory.close();
  const counts = deliveryCounts(outcome.stats);
  const alreadyKnown = counts.duplicates > 0;
  // A dead letter leaves the queue too: complete, but not stored.
  const stored = outcome.complete && counts.deadLettered === 0;
  const refusal = stored ? undefined : memory.lastWriteRefusal();
  const refused = refusal === undefined ? {} : { refused: { status: refusal.status, message: refusal.message } };
  output.result({ ok: stored, kind, scope, groupId: plan.groupId, name: plan.episodeName, alreadyKnown, ...counts, ...refused });
  if (alreadyKnown && stored) output.line(`${output.colors.green('✔')} already remembered (${kind}, ${scope})`);
  else if (stored) output.line(`${output.colors.green('✔')} remembered as a ${kind} in the ${scope} scope (group ${plan.groupId})`);
  else if (refusal !== undefined) {
    output.error(
      `Graphiti refused the memory (HTTP ${refusal.status}${refusal.count > 1 ? `, ${refusal.count} times` : ''}): ${refusal.message}`,
      counts.deadLettered > 0
        ? 'It will not be sent again on its own: graphiti-harness outbox list shows it; outbox retry sends it again once the server accepts it.'
        : 'It stays queued in the outbox and is sent again by the next command or hook that sends; graphiti-harness doctor shows what waits.',
    );
  } else if (counts.deadLettered > 0) output.error('the memory was not stored: it became a dead letter.', 'graphiti-harness outbox list shows why; outbox retry sends it again.');
  else output.error(`sent, but not confirmed stored within ${waitSeconds} s.`, 'Run graphiti-harness episodes --scope ' + scope + ' later to check.');
  return stored ? ExitCode.ok : ExitCode.failure;
}
