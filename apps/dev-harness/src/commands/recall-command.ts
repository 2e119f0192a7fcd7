// `graphiti-harness recall QUERY`: memory-core's recall (concurrent per-scope searches under a
// deadline, merged, superseded facts dropped) and the `<graphiti_memory>` block a prompt gets.
import { cachedLabel, scopeLabel, type MemoryScope, type RecalledFact } from '@graphiti-memory/memory-core';
import { factLineSuffix, sanitiseFactText } from '@graphiti-memory/prompt-elements';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode } from '../cli/harness-errors.js';
import { parseInteger, parseText } from '../cli/option-parsers.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { DEFAULT_PROMPT_BUDGET, renderMemoryPrompt } from '../prompt/render-memory-prompt.js';
import type { Output } from '../terminal/output.js';
import type { CommandRegistrar } from './command-registrar.js';

interface RecallCommandOptions extends RawCommonOptions {
  readonly maxFacts?: string;
  readonly budget?: string;
  readonly keepSuperseded?: boolean;
}

export const registerRecallCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('recall')
        .description('search memory for QUERY and show the <graphiti_memory> block a prompt would get')
        .argument('<query>', 'what to look for, in quotes')
        .option('--max-facts <n>', 'at most this many facts (1 to 50, default 10)')
        .option('--budget <tokens>', `token budget of the rendered block (default ${DEFAULT_PROMPT_BUDGET})`)
        .option('--keep-superseded', 'also list facts that were contradicted later, marked as superseded')
        .addHelpText(
          'after',
          [
            '',
            'Scopes: --scopes session,workspace,user,team (session needs --session; team needs `team enable`), or auto (picked from the query); default: the configuration\'s recall.scopes (both: session and workspace, and team once enabled).',
            'The deadline is --timeout-ms (at most 10 000 ms): what has not answered by then is left out (timedOut).',
            'Each fact cites the episode it came from when this machine delivered it: (Claude Code, 2026-11-20); --json gives sources: [{ tool, session, title, at, episode }].',
            'Forget one source with graphiti-harness forget --episode UUID. A fact naming a workspace path that is gone is marked (recall.stale: mark | drop | off).',
            '',
            'Examples:',
            '  graphiti-harness recall "which package manager do we use"',
            '  graphiti-harness recall "deploy procedure" --scopes workspace,user --json',
            '  graphiti-harness recall "what did we decide" --session my-session --endpoint http://localhost:8000',
          ].join('\n'),
        ),
    ).action((query: string, raw: RecallCommandOptions) => run(raw, (context) => recall(context, query, raw))),
  );
};

async function recall(context: CommandContext, query: string, raw: RecallCommandOptions): Promise<ExitCode> {
  const { output, options } = context;
  const text = parseText(query, 'QUERY');
  const maxFacts = raw.maxFacts === undefined ? 10 : parseInteger(raw.maxFacts, '--max-facts', { min: 1, max: 50 });
  const budget = raw.budget === undefined ? DEFAULT_PROMPT_BUDGET : parseInteger(raw.budget, '--budget', { min: 50, max: 200_000 });
  // A soft health check first (it probes an unknown face): with Graphiti down, the local tier still
  // answers (labelled as cached); with nothing cached, the health check's failure is the error.
  const memory = await openHarnessMemory(context, { maxFacts, needs: {}, preflight: 'soft' });
  // Without --scopes, the configuration's `recall.scopes` (the settings recall reads by default).
  const scopes: readonly MemoryScope[] | 'auto' | 'all' | undefined =
    options.scopes === undefined ? undefined : options.scopes.kind === 'list' ? options.scopes.scopes : options.scopes.kind;
  const result = await memory.recall.recall(text, {
    ...(scopes === undefined ? {} : { scopes }),
    maxFacts,
    timeoutMs: options.timeoutMs,
    keepSuperseded: raw.keepSuperseded === true,
    ...(options.session === undefined ? {} : { sessionId: options.session }),
  });
  const missed = result.timedOut || (result.errors.length > 0 && result.errors.length >= result.scopes.length);
  // Graphiti down or past the deadline: memory's local tier answers, labelled as cached with its age.
  const cached =
    missed && result.facts.length === 0 ? await memory.tier.cachedRecall(text, { maxFacts, ...(options.session === undefined ? {} : { sessionId: options.session }) }) : undefined;
  const facts = cached?.facts ?? result.facts;
  const prompt = await renderMemoryPrompt(facts, budget);
  const everySearchFailed = result.errors.length > 0 && result.errors.length >= result.scopes.length;
  // Nothing answered by the deadline and nothing cached: a failure to say, not an empty answer.
  const unanswered = cached === undefined && result.timedOut && result.facts.length === 0;
  const failed = (cached === undefined && everySearchFailed) || unanswered;
  const label = cached === undefined ? undefined : cachedLabel(cached.cachedAt, new Date());
  output.result({
    ok: !failed,
    facts: facts.map(factJson),
    cached: cached === undefined || label === undefined ? null : { at: cached.cachedAt, label },
    timedOut: result.timedOut,
    elapsedMs: result.elapsedMs,
    prompt: prompt.text,
    promptTokens: prompt.tokenCount,
    scopes: result.scopes,
    errors: result.errors,
    endpoint: memory.endpoint.url,
    emulator: memory.endpoint.emulator !== undefined,
  });
  if (label !== undefined) output.warn(`Graphiti did not answer: these facts are from the local memory cache (${label}).`);
  printRecall(output, facts, result, prompt.text);
  if (failed && memory.preflightFailure !== undefined) throw memory.preflightFailure;
  if (failed) {
    output.error(
      everySearchFailed
        ? `every search failed at ${memory.endpoint.url} (${result.errors.map((error) => `${error.scope}: ${error.errorClass}`).join(', ')}).`
        : `Graphiti at ${memory.endpoint.url} did not answer within ${options.timeoutMs} ms, and the local memory cache holds nothing for this query.`,
      'Run graphiti-harness health to see what is wrong with the endpoint (or raise --timeout-ms).',
    );
  }
  return failed ? ExitCode.failure : ExitCode.ok;
}

/**
 * A recalled fact for `--json`: the wire fields plus scope, rank and superseded, its `sources`
 * (`{ tool, session, title, at, episode }` of each episode delivered from this machine; empty when
 * none is known here) and `stale` (workspace paths it names that are gone).
 */
export function factJson(fact: RecalledFact) {
  return {
    fact: fact.fact,
    valid_at: fact.valid_at ?? null,
    invalid_at: fact.invalid_at ?? null,
    expired_at: fact.expired_at ?? null,
    created_at: fact.created_at,
    scope: fact.scope,
    ...(fact.author === undefined ? {} : { author: fact.author }),
    rank: fact.rank,
    superseded: fact.superseded === true,
    uuid: fact.uuid,
    name: fact.name,
    sources: fact.sources ?? [],
    stale: fact.stale ?? [],
  };
}

function printRecall(
  output: Output,
  facts: readonly RecalledFact[],
  result: { timedOut: boolean; elapsedMs: number; scopes: readonly MemoryScope[]; errors: readonly { scope: MemoryScope; errorClass: string }[] },
  prompt: string,
): void {
  output.line(
    `${facts.length} facts from ${result.scopes.length === 0 ? 'no scope' : result.scopes.join(', ')} in ${result.elapsedMs} ms${result.timedOut ? output.colors.yellow(' (deadline passed: some scopes left out)') : ''}`,
  );
  for (const error of result.errors) output.warn(`search of the ${error.scope} scope failed: ${error.errorClass}`);
  if (result.scopes.length === 0) output.warn('no scope could be searched: pass --session ID for the session scope, or --scopes workspace,user.');
  for (const fact of facts) {
    const validity = `${fact.valid_at ?? '?'} → ${fact.invalid_at ?? 'now'}`;
    const mark = fact.superseded === true ? output.colors.yellow(' (superseded)') : '';
    // Recalled text is data: nothing in it may drive the terminal (escape sequences) or break the block.
    const cited = factLineSuffix(fact);
    output.line(`  ${output.colors.dim(`[${sanitiseFactText(scopeLabel(fact))}]`)} ${sanitiseFactText(fact.fact)}${mark} ${output.colors.dim(validity)}${cited === '' ? '' : output.colors.yellow(cited)}`);
  }
  if (prompt !== '') {
    output.line();
    output.line(output.colors.dim('Rendered for a prompt:'));
    output.line(prompt);
  }
}
