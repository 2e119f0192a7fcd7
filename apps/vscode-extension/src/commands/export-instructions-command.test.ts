// Export Memories to Instruction File: a promoted decision lands in the generated section of the
// workspace's AGENTS.md, the hand-written text around it stays byte for byte, and running it again
// changes nothing (the emulator stands in for Graphiti).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { activateExtension, waitFor } from '../test-support/extension-harness.js';
import { answerInputBoxes, answerQuickPicks, testHost } from '../test-support/vscode-double.js';
import type { ExportOutcome } from './export-instructions-command.js';

describe('Export Memories to Instruction File', () => {
  it('writes the promoted decision between the markers, keeps the text around them, and a second run changes nothing', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'export-instructions-'));
    const harness = await activateExtension({ settings: { 'graphitiMemory.enabled': true }, consented: true, workspaceFolder: folder });
    testHost().activeEditor = { selectedText: '' };
    answerQuickPicks('Decision', 'This workspace');
    answerInputBoxes('Use zod for every schema.');
    expect((await harness.command<{ ok: boolean }>('graphitiMemory.promote')).ok).toBe(true);
    await waitFor(() => harness.emulator.requests.some((request) => request.path === '/messages'), 5000, 'the promotion sent');
    await harness.emulator.idle();
    const around = ['# Agents\n\nHand-written.\n\n', '\n## More\ntext'];
    fs.writeFileSync(path.join(folder, 'AGENTS.md'), `${around[0]}<!-- graphiti-memory:start -->\nold\n<!-- graphiti-memory:end -->\n${around[1]}`);
    const first = await harness.command<ExportOutcome>('graphitiMemory.exportInstructions', 'agents-md');
    expect(first).toMatchObject({ ok: true, changed: true });
    const written = fs.readFileSync(path.join(folder, 'AGENTS.md'), 'utf8');
    expect(written.startsWith(around[0] ?? '')).toBe(true);
    expect(written.endsWith(`<!-- graphiti-memory:end -->\n${around[1]}`)).toBe(true);
    expect(written).toMatch(/### Decisions\n\n- Use zod for every schema\. \(\d{4}-\d{2}-\d{2}\)/);
    expect(await harness.command<ExportOutcome>('graphitiMemory.exportInstructions', 'agents-md')).toMatchObject({ ok: true, changed: false });
    expect(fs.readFileSync(path.join(folder, 'AGENTS.md'), 'utf8')).toBe(written);
  });
});
