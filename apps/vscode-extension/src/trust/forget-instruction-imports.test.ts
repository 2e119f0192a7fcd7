// Issue 33: Forget Workspace Memory in VS Code lets go of what `graphiti-harness import-instructions`
// recorded for the workspace (the shared state folder's ledger), as the CLI's forget does: a later
// import sends those lines again instead of skipping memories that are gone.
import { GroupIdResolver } from '@graphiti-memory/memory-core';
import { FileInstructionLedger, sharedStateFiles } from '@graphiti-memory/memory-node-storage';
import { describe, expect, it } from 'vitest';
import { FORGET } from '../commands/forget-workspace-command.js';
import { activateExtension } from '../test-support/extension-harness.js';
import { answerMessages } from '../test-support/vscode-double.js';

describe('Forget Workspace Memory and the instruction import record', () => {
  it("forgets the workspace's imported lines and keeps another workspace's", async () => {
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true });
    const groupId = await harness.container.get<GroupIdResolver>(GroupIdResolver).resolve('workspace');
    if (groupId === undefined) throw new Error('no workspace group');
    // What import-instructions wrote (the harness, another process, the same state folder).
    const ledger = new FileInstructionLedger(sharedStateFiles(harness.stateDirectory).instructionImports);
    const imported = (group: string) => ({ hash: 'h1', line: 1, text: 'Run pnpm test before pushing.', kind: 'procedure', groupId: group, episodeName: 'graphiti-memory.promotion.1', importedAt: new Date().toISOString() });
    await ledger.replace(FileInstructionLedger.key(groupId, 'CLAUDE.md'), [imported(groupId)]);
    await ledger.replace(FileInstructionLedger.key('gm_workspace_other', 'CLAUDE.md'), [imported('gm_workspace_other')]);

    answerMessages(FORGET);
    const result = await harness.command<{ ok: boolean }>('graphitiMemory.forgetWorkspace');
    expect(result.ok).toBe(true);

    expect(await ledger.lines(FileInstructionLedger.key(groupId, 'CLAUDE.md'))).toEqual([]);
    expect(await ledger.lines(FileInstructionLedger.key('gm_workspace_other', 'CLAUDE.md'))).toHaveLength(1);
  });
});
