// `graphiti-harness episodes --scope S --last N`: what Graphiti stored for a scope, newest last.
import { parsePromotionEpisode, sanitiseReadableLine, scopeLabel, type MemoryScope } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode } from '../cli/harness-errors.js';
import { HARNESS_SCOPES, parseInteger, parseScope } from '../cli/option-parsers.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { describeGraphitiFailure } from '../terminal/describe-error.js';
import type { CommandRegistrar } from './command-registrar.js';
import { groupOfScope } from './scope-group.js';

interface EpisodesOptions extends RawCommonOptions {
  readonly scope?: string;
  readonly last?: string;
}

const PREVIEW_CHARACTERS = 100;

export const registerEpisodesCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('episodes')
        .description("list the latest episodes stored in a scope's group")
        .requiredOption('--scope <scope>', HARNESS_SCOPES.join(' | '))
        .option('--last <n>', 'how many (default 10)')
        .addHelpText(
          'after',
          [
            '',
            'Examples:',
            '  graphiti-harness episodes --scope workspace --last 20',
            '  graphiti-harness episodes --scope session --session my-session --json',
          ].join('\n'),
        ),
    ).action((raw: EpisodesOptions) => run(raw, (context) => episodes(context, raw))),
  );
};

async function episodes(context: CommandContext, raw: EpisodesOptions): Promise<ExitCode> {
  const { output, options } = context;
  const scope: MemoryScope = parseScope(raw.scope ?? '', HARNESS_SCOPES);
  const last = raw.last === undefined ? 10 : parseInteger(raw.last, '--last', { min: 1, max: 1000 });
  const memory = await openHarnessMemory(context, { needs: {} });
  const groupId = await groupOfScope(memory, scope, options.session);
  let list;
  try {
    list = await memory.client.getEpisodes(groupId, { lastN: last });
  } catch (error) {
    throw describeGraphitiFailure(error, memory.endpoint.url, 'Reading /episodes', options.timeoutMs);
  }
  output.result({
    ok: true,
    scope,
    groupId,
    episodes: list.map((episode) => ({
      uuid: episode.uuid,
      name: episode.name,
      created_at: episode.created_at,
      valid_at: episode.valid_at,
      source_description: episode.source_description,
      content: episode.content,
      // Team episodes: who shared it, when they gave a name.
      ...(scope === 'team' ? { author: parsePromotionEpisode(episode)?.author ?? null } : {}),
    })),
  });
  output.line(`${list.length} episodes in the ${scope} scope (group ${groupId})`);
  // Names, dates, authors and content come from the server (and pasted turns): printed only sanitised.
  for (const episode of list) {
    const preview = sanitiseReadableLine(episode.content);
    const label = scope === 'team' ? ` ${output.colors.dim(`[${sanitiseReadableLine(scopeLabel({ scope, author: parsePromotionEpisode(episode)?.author }))}]`)}` : '';
    output.line(`  ${output.colors.dim(sanitiseReadableLine(episode.valid_at))} ${output.colors.cyan(sanitiseReadableLine(episode.name))}${label}`);
    output.line(`    ${preview.length > PREVIEW_CHARACTERS ? `${preview.slice(0, PREVIEW_CHARACTERS)}…` : preview}`);
  }
  return ExitCode.ok;
}
