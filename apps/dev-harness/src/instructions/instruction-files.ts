// The instruction files `export` writes and `import-instructions` reads, where they live in a
// workspace, and how a file is read and written without touching what is not ours.
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** `export --to` targets → the file in the workspace. */
export const INSTRUCTION_TARGETS = {
  'agents-md': 'AGENTS.md',
  'claude-md': 'CLAUDE.md',
  'copilot-instructions': path.join('.github', 'copilot-instructions.md'),
} as const;
export type InstructionTarget = keyof typeof INSTRUCTION_TARGETS;

export function isInstructionTarget(value: string): value is InstructionTarget {
  return Object.hasOwn(INSTRUCTION_TARGETS, value);
}

/** The file's text; `undefined` when it does not exist. Other failures throw (the caller reports them). */
export async function readInstructionFile(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes `text` atomically (its folder made when missing), keeping the mode of a file that exists. */
export async function writeInstructionFile(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const mode = (await fs.stat(file).catch(() => undefined))?.mode ?? 0o644;
  // A crash leaves the old file or the new one, never half of either: the team's text is in it.
  const temporary = `${file}.graphiti-${process.pid}.tmp`;
  const handle = await fs.open(temporary, 'w', mode & 0o777);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temporary, file).catch(async (error: unknown) => {
    await fs.rm(temporary, { force: true });
    throw error;
  });
}

/** The instruction files that exist in `workspace`, in the order of `INSTRUCTION_TARGETS`. */
export async function existingInstructionFiles(workspace: string): Promise<string[]> {
  const files = Object.values(INSTRUCTION_TARGETS).map((relative) => path.join(workspace, relative));
  const found = await Promise.all(files.map(async (file) => ((await fs.stat(file).catch(() => undefined))?.isFile() === true ? file : undefined)));
  return found.filter((file): file is string => file !== undefined);
}
