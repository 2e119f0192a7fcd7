// `graphiti-harness import-instructions [FILE…] [--kind K]`: the bullet and heading lines of the
// team's instruction files (default: AGENTS.md, CLAUDE.md and .github/copilot-instructions.md where
// they exist) as curated workspace memories, each citing its file and line. Once: the state
// folder's ledger keeps each imported line by the hash of its content, so an unchanged line sends
// nothing again; a line changed in place (same line number, new text) supersedes the memory it came
// from through memory-core's MemoryEditing (the new version promoted, the old episode forgotten).
// A line removed from the file forgets the memory it became (every copy, and on REST the facts only
// it supported): the file no longer says it, so no memory may claim it does. A removed line whose
// memory could not be forgotten now (Graphiti unreachable) stays in the ledger and the next import
// tries again. Lines inside the generated section of `export` are never imported back.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { instructionLines, isPromotionKind, PROMOTION_KINDS, sanitiseReadableLine, type InstructionLine, type PromotionKind } from '@graphiti-memory/memory-core';
import { FileInstructionLedger, sharedStateFiles, type ImportedLine } from '@graphiti-memory/memory-node-storage';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError, UsageError } from '../cli/harness-errors.js';
import { openHarnessMemory, type HarnessMemory } from '../composition/harness-container.js';
import { deliveryCounts, waitForDelivery } from '../delivery/wait-for-delivery.js';
import { existingInstructionFiles, readInstructionFile } from '../instructions/instruction-files.js';
import type { CommandRegistrar } from './command-registrar.js';

interface ImportOptions extends RawCommonOptions {
  readonly kind?: string;
}

const WAIT_SECONDS = 120;
/** Episodes of the workspace group listed to find a superseded line's episode by its name. */
const EPISODE_LISTING = 1_000;

interface FileReport {
  readonly file: string;
  readonly lines: number;
  readonly sent: number;
  readonly unchanged: number;
  readonly superseded: number;
  /** Changed lines whose earlier memory was not found on the server (sent as new; the old one stays). */
  readonly oldNotFound: number;
  /** Lines of the earlier import no longer in the file. */
  readonly removed: number;
  /** Of those, the lines whose memories were forgotten now (or were no longer on the server). */
  readonly forgotten: number;
  readonly refused: ReadonlyArray<{ readonly line: number; readonly reason: string }>;
}

export const registerImportInstructionsCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('import-instructions')
        .description("read the bullet and heading lines of AGENTS.md, CLAUDE.md or .github/copilot-instructions.md as curated workspace memories (once)")
        .argument('[files...]', 'the files (default: those of the three that exist in the workspace)')
        .option('--kind <kind>', `every line as this kind (${PROMOTION_KINDS.join(' | ')}); default: inferred from the line and its heading`)
        .addHelpText(
          'after',
          [
            '',
            'Each memory cites its file and line ("Run pnpm test (CLAUDE.md:12)"). Re-importing an unchanged line',
            'sends nothing; a line changed in place supersedes the memory it came from; a line removed from the file',
            'forgets the memory it became. Lines between',
            '<!-- graphiti-memory:start --> and <!-- graphiti-memory:end --> (what export writes) are skipped.',
            '--json prints { "files": [{ "file", "lines", "sent", "unchanged", "superseded", "removed", "forgotten", "refused" }] }.',
            '',
            'Examples:',
            '  graphiti-harness import-instructions',
            '  graphiti-harness import-instructions CLAUDE.md --kind procedure --json',
          ].join('\n'),
        ),
    ).action((files: string[], raw: ImportOptions) => run(raw, (context) => importInstructions(context, files, raw), { salvageConfig: true })),
  );
};

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');

async function importInstructions(context: CommandContext, given: readonly string[], raw: ImportOptions): Promise<ExitCode> {
  const { output, options } = context;
  let kind: PromotionKind | undefined;
  if (raw.kind !== undefined) {
    if (!isPromotionKind(raw.kind)) throw new UsageError(`--kind must be one of ${PROMOTION_KINDS.join(', ')} (got ${JSON.stringify(raw.kind)}).`);
    kind = raw.kind;
  }
  const files = given.length > 0 ? given.map((file) => path.resolve(options.workspace, file)) : await existingInstructionFiles(options.workspace);
  if (files.length === 0) {
    output.result({ ok: true, files: [] });
    output.line('No AGENTS.md, CLAUDE.md or .github/copilot-instructions.md in this workspace; name the files to import.');
    return ExitCode.ok;
  }
  const texts = await Promise.all(
    files.map(async (file) => {
      const text = await readInstructionFile(file).catch((error: unknown) => {
        throw new HarnessError(`cannot read ${file}.`, { hint: 'Check the path and its permissions.', cause: error });
      });
      if (text === undefined) throw new HarnessError(`${file} does not exist; nothing was imported.`, { hint: 'Check the path (relative paths are read from --workspace).', details: { file } });
      return text;
    }),
  );
  const memory = await openHarnessMemory(context);
  memory.ingestion.start();
  const groupId = await memory.groups.resolve('workspace');
  if (groupId === undefined) throw new HarnessError('this folder has no workspace scope, so its memories have nowhere to go.', { hint: 'Pass --workspace PATH of the project.' });
  const ledger = new FileInstructionLedger(sharedStateFiles(memory.stateDirectory).instructionImports);
  const reports: FileReport[] = [];
  for (const [index, file] of files.entries()) {
    reports.push(await importFile(memory, ledger, groupId, file, path.relative(options.workspace, file) || path.basename(file), instructionLines(texts[index] ?? '', kind)));
  }
  const delivery = await waitForDelivery(memory.ingestion, { until: 'confirmed', timeoutMs: WAIT_SECONDS * 1000, output, terminal: context.terminal });
  await memory.close();
  const counts = deliveryCounts(delivery.stats);
  output.result({ ok: delivery.complete, files: reports, ...counts });
  for (const report of reports) {
    output.line(`${output.colors.green('✔')} ${report.file}: ${report.sent} sent, ${report.unchanged} unchanged, ${report.superseded} superseded${describeRemoved(report)}`);
    for (const refusal of report.refused) output.line(`  line ${refusal.line} not imported: ${refusal.reason}`);
  }
  if (!delivery.complete) output.error(`sent, but not confirmed stored within ${WAIT_SECONDS} s.`, 'Run graphiti-harness doctor to see what waits.');
  return delivery.complete ? ExitCode.ok : ExitCode.failure;
}

async function importFile(memory: HarnessMemory, ledger: FileInstructionLedger, groupId: string, file: string, relative: string, lines: readonly InstructionLine[]): Promise<FileReport> {
  const key = FileInstructionLedger.key(groupId, relative);
  const previous = await ledger.lines(key);
  const known = new Map(previous.map((line) => [line.hash, line]));
  const current = new Set(lines.map((line) => hashOf(line.text)));
  // Lines of the earlier import no longer in the file, by line number: a new line at one of them changed it.
  const gone = new Map(previous.filter((line) => !current.has(line.hash)).map((line) => [line.line, line]));
  const next: ImportedLine[] = [];
  const refused: Array<{ line: number; reason: string }> = [];
  let sent = 0;
  let unchanged = 0;
  let superseded = 0;
  let oldNotFound = 0;
  let episodes: Promise<ReadonlyArray<{ uuid: string; name: string }>> | undefined;
  for (const line of lines) {
    const hash = hashOf(line.text);
    const before = known.get(hash);
    if (before !== undefined) {
      unchanged++;
      next.push(before);
      continue;
    }
    const text = `${line.text} (${relative}:${line.line})`;
    const replaced = gone.get(line.line);
    if (replaced !== undefined) {
      gone.delete(line.line);
      episodes ??= memory.client.getEpisodes(groupId, { lastN: EPISODE_LISTING });
      const old = (await episodes.catch(() => [])).find((episode) => episode.name === replaced.episodeName);
      if (old !== undefined) {
        const edited = await memory.editing.edit({ episode: old.uuid, groupId, text });
        if (edited.status === 'edited' || edited.status === 'old-kept') {
          superseded++;
          next.push({ hash, line: line.line, text: line.text, kind: edited.kind, groupId: edited.groupId, episodeName: edited.episodeName, importedAt: new Date().toISOString() });
          continue;
        }
        if (edited.status === 'refused') {
          refused.push({ line: line.line, reason: describeRefusal(edited.reason) });
          next.push(replaced);
          continue;
        }
      }
      oldNotFound++;
    }
    const promoted = await memory.memoryPromotion.promote({ kind: line.kind, scope: 'workspace', text });
    if (!promoted.ok) {
      refused.push({ line: line.line, reason: describeRefusal(promoted.reason) });
      continue;
    }
    sent++;
    next.push({ hash, line: line.line, text: line.text, kind: line.kind, groupId: promoted.groupId, episodeName: promoted.episodeName, importedAt: new Date().toISOString() });
  }
  // What is left of the earlier import is no longer in the file: its memories go.
  const removed = [...gone.values()];
  const kept = await forgetRemoved(memory, removed, () => (episodes ??= memory.client.getEpisodes(groupId, { lastN: EPISODE_LISTING })));
  await ledger.replace(key, [...next, ...kept]);
  return { file, lines: lines.length, sent, unchanged, superseded, oldNotFound, removed: removed.length, forgotten: removed.length - kept.length, refused: refused.map((refusal) => ({ ...refusal, reason: sanitiseReadableLine(refusal.reason) })) };
}

/**
 * Forgets the memories of lines removed from the file; returns the lines whose memory could not be
 * forgotten now (kept in the ledger: the next import tries again). A memory no longer on the server
 * (forgotten or edited by hand since) has nothing left to forget.
 */
async function forgetRemoved(memory: HarnessMemory, removed: readonly ImportedLine[], listing: () => Promise<ReadonlyArray<{ uuid: string; name: string }>>): Promise<ImportedLine[]> {
  if (removed.length === 0) return [];
  const episodes = await listing().catch(() => undefined);
  if (episodes === undefined) return [...removed];
  const kept: ImportedLine[] = [];
  for (const line of removed) {
    const episode = episodes.find((candidate) => candidate.name === line.episodeName);
    if (episode === undefined) continue;
    try {
      await memory.forget.forgetSource(episode.uuid, { groupId: line.groupId });
    } catch {
      kept.push(line);
    }
  }
  return kept;
}

function describeRemoved(report: FileReport): string {
  if (report.removed === 0) return '';
  const left = report.removed - report.forgotten;
  return `, ${report.removed} no longer in the file (${left === 0 ? 'their memories forgotten' : `${report.forgotten} forgotten; ${left} could not be forgotten now, the next import tries again`})`;
}

function describeRefusal(reason: string): string {
  return reason === 'secret' ? 'it looks like it holds a secret (a key, token or password)' : `refused (${reason})`;
}
