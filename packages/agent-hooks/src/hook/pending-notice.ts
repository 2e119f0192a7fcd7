// SessionStart's line about memories waiting for review: directives the hooks (or any other tool)
// held back sit in the shared pending file until the user approves or rejects them, and a Claude
// Code or Copilot user would otherwise never learn they are there. Only a count: never their text.
import { FilePendingMemoryStore, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import type { HandlerResult } from './handler-result.js';

/** "N memories await your review …", or `undefined` when none wait (or the file cannot be read). */
export async function pendingNotice(stateDirectory: string): Promise<string | undefined> {
  let count: number;
  try {
    count = (await new FilePendingMemoryStore({ filePath: sharedStateFiles(stateDirectory).pendingMemories }).list()).length;
  } catch {
    // Fail open: the brief goes out without the line.
    return undefined;
  }
  if (count === 0) return undefined;
  const memories = count === 1 ? '1 memory awaits' : `${count} memories await`;
  return `Graphiti Memory: ${memories} your review: run \`graphiti-harness pending list\`, or open the Graphiti Memory view in VS Code.`;
}

/** `result` with the notice after its brief, or as the whole context when the brief is empty. */
export function withPendingNotice(result: HandlerResult, notice: string | undefined): HandlerResult {
  if (notice === undefined) return result;
  return { ...result, context: result.context === undefined ? notice : `${result.context}\n\n${notice}` };
}
