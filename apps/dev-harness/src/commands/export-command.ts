// `graphiti-harness export --to agents-md|claude-md|copilot-instructions [--check]`: the
// workspace's curated memories (decisions, conventions, procedures, terminology: promoted memories
// only, never session chat) written into the generated section of AGENTS.md, CLAUDE.md or
// .github/copilot-instructions.md, between memory-core's exact marker lines. Only that section
// changes; a file without it gets it appended, a missing file is created; a second export changes
// nothing. `--check` writes nothing and exits 1 when the file is out of date (for CI). A memory the
// secret guard flags is left out whole.
import path from 'node:path';
import { exportableMemories, lineEndingOf, renderInstructionSection, replaceInstructionSection, type CuratedMemory, type TierContent } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError, UsageError } from '../cli/harness-errors.js';
import { openHarnessMemory, type HarnessMemory } from '../composition/harness-container.js';
import { INSTRUCTION_TARGETS, isInstructionTarget, readInstructionFile, writeInstructionFile } from '../instructions/instruction-files.js';
import type { CommandRegistrar } from './command-registrar.js';

interface ExportOptions extends RawCommonOptions {
  readonly to?: string;
  readonly check?: boolean;
}

export const registerExportCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('export')
        .description("write the workspace's curated memories into a generated section of AGENTS.md, CLAUDE.md or .github/copilot-instructions.md")
        .option('--to <target>', Object.keys(INSTRUCTION_TARGETS).join(' | '))
        .option('--check', 'write nothing; exit 1 when the file is out of date (for CI)')
        .addHelpText(
          'after',
          [
            '',
            'Only the lines from <!-- graphiti-memory:start --> to <!-- graphiti-memory:end --> are written;',
            'everything else in the file stays as it is. Decisions, conventions (preferences), procedures and',
            'terminology of the workspace (and verified team memories) are listed by kind, each with its date.',
            '--json prints { "file", "changed", "upToDate", "memories", "source": "graphiti" | "cache" }.',
            '',
            'Examples:',
            '  graphiti-harness export --to agents-md',
            '  graphiti-harness export --to copilot-instructions --check',
          ].join('\n'),
        ),
    ).action((raw: ExportOptions) => run(raw, (context) => exportMemories(context, raw), { salvageConfig: true })),
  );
};

async function exportMemories(context: CommandContext, raw: ExportOptions): Promise<ExitCode> {
  const { output } = context;
  if (raw.to === undefined || !isInstructionTarget(raw.to)) throw new UsageError(`export needs --to ${Object.keys(INSTRUCTION_TARGETS).join('|')}${raw.to === undefined ? '' : ` (got ${JSON.stringify(raw.to)})`}.`);
  const file = path.join(context.options.workspace, INSTRUCTION_TARGETS[raw.to]);
  const memory = await openHarnessMemory(context, { preflight: 'soft', needs: {} });
  const { memories, source } = await curatedMemories(memory);
  let existing: string | undefined;
  try {
    existing = await readInstructionFile(file);
  } catch (error) {
    throw new HarnessError(`cannot read ${file}.`, { hint: 'Check its permissions.', cause: error });
  }
  const replaced = replaceInstructionSection(existing, renderInstructionSection(memories, lineEndingOf(existing)));
  if (!replaced.ok) throw new HarnessError(`${file}: ${replaced.problem}; nothing was written.`, { details: { file } });
  const upToDate = existing === replaced.text;
  const result = { file, upToDate, memories: memories.length, source };
  if (raw.check === true) {
    output.result({ ok: upToDate, ...result, changed: false });
    if (upToDate) output.line(`${output.colors.green('✔')} ${file} is up to date (${memories.length} memories)`);
    else output.error(`${file} is out of date with the workspace's memories.`, `Run graphiti-harness export --to ${raw.to} and commit the file.`);
    return upToDate ? ExitCode.ok : ExitCode.failure;
  }
  if (!upToDate) {
    try {
      await writeInstructionFile(file, replaced.text);
    } catch (error) {
      throw new HarnessError(`cannot write ${file}; it was left as it was.`, { hint: 'Check the folder is writable.', cause: error });
    }
  }
  output.result({ ok: true, ...result, changed: !upToDate });
  output.line(upToDate ? `${output.colors.green('✔')} ${file} was already up to date (${memories.length} memories)` : `${output.colors.green('✔')} wrote ${memories.length} memories into ${file}`);
  if (source === 'cache') output.line('  Graphiti did not answer: written from the local memory cache');
  return ExitCode.ok;
}

/**
 * The workspace's promoted memories of the kinds a file holds: read from Graphiti into the local
 * tier (the cache when Graphiti does not answer), the workspace's and the team's (verified) only,
 * each passed through the secret guard again (one it flags is left out, never half written).
 */
async function curatedMemories(memory: HarnessMemory): Promise<{ memories: CuratedMemory[]; source: 'graphiti' | 'cache' }> {
  let tier: TierContent | undefined;
  let source: 'graphiti' | 'cache' = 'graphiti';
  try {
    tier = memory.preflightFailure === undefined ? await memory.tier.refresh() : undefined;
  } catch {
    tier = undefined;
  }
  if (tier === undefined) {
    source = 'cache';
    tier = await memory.tier.read();
  }
  return { memories: await exportableMemories(tier, memory.guard), source };
}
