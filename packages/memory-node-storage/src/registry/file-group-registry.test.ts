import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { GroupWrite } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { FileGroupRegistry } from './file-group-registry.js';

function write(groupId: string, at: number, fields: Partial<GroupWrite> = {}): GroupWrite {
  return { groupId, scope: 'session', workspaceKey: 'gm_workspace_a', sessionId: 's1', tool: 'harness', messages: 2, at, ...fields };
}

describe('FileGroupRegistry', () => {
  it('merges writes per group, survives reopening, and keeps the file private (0600)', async () => {
    const filePath = path.join(await temporaryDirectory(), 'state', 'group-registry.json');
    const registry = await FileGroupRegistry.open({ filePath });
    registry.record([write('gm_session_1', 1000, { title: 'first prompt' })]);
    registry.record([write('gm_session_1', 3000, { title: 'later prompt', tool: 'vscode-extension' }), { groupId: 'gm_workspace_a', scope: 'workspace', workspaceKey: 'gm_workspace_a', tool: 'harness', messages: 2, at: 2000 }]);
    await registry.flush();
    const reopened = await FileGroupRegistry.open({ filePath });
    expect(await reopened.list()).toEqual([
      { groupId: 'gm_session_1', scope: 'session', workspaceKey: 'gm_workspace_a', sessionId: 's1', title: 'first prompt', tools: ['harness', 'vscode-extension'], firstWriteAt: 1000, lastWriteAt: 3000, messages: 4 },
      expect.objectContaining({ groupId: 'gm_workspace_a', scope: 'workspace', messages: 2 }),
    ]);
    if (process.platform !== 'win32') expect((await fs.stat(filePath)).mode & 0o777).toBe(0o600);
  });

  it('loses no write when two processes record into one file at once', async () => {
    const filePath = path.join(await temporaryDirectory(), 'group-registry.json');
    const [left, right] = await Promise.all([FileGroupRegistry.open({ filePath }), FileGroupRegistry.open({ filePath })]);
    for (let index = 0; index < 20; index++) {
      left.record([write(`gm_session_l${index}`, index)]);
      right.record([write(`gm_session_r${index}`, index), write('gm_workspace_a', index, { scope: 'workspace' })]);
      left.record([write('gm_workspace_a', index, { scope: 'workspace' })]);
    }
    await Promise.all([left.flush(), right.flush()]);
    const records = await (await FileGroupRegistry.open({ filePath })).list();
    expect(records).toHaveLength(41);
    expect(records.find((record) => record.groupId === 'gm_workspace_a')?.messages).toBe(80);
  });

  it('removes forgotten groups, and replaces a corrupt file keeping a copy', async () => {
    const filePath = path.join(await temporaryDirectory(), 'group-registry.json');
    await fs.writeFile(filePath, '{ not json');
    const registry = await FileGroupRegistry.open({ filePath });
    expect(await registry.list()).toEqual([]);
    registry.record([write('gm_session_1', 1), write('gm_session_2', 2)]);
    await registry.remove(['gm_session_1']);
    expect((await registry.list()).map((record) => record.groupId)).toEqual(['gm_session_2']);
    expect(await fs.readFile(`${filePath}.corrupt`, 'utf8')).toBe('{ not json');
  });
});
