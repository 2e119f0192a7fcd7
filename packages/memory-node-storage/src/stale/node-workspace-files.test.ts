import { promises as fs } from 'node:fs';
import path from 'node:path';
import { MAX_STALE_CHECKS } from '@graphiti-memory/memory-core';
import { describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';
import { NodeWorkspaceFiles } from './node-workspace-files.js';

async function workspace(): Promise<string> {
  const root = await temporaryDirectory();
  await fs.mkdir(path.join(root, 'src', 'parser'), { recursive: true });
  await fs.writeFile(path.join(root, 'src', 'parser', 'index.ts'), 'export {};\n');
  await fs.writeFile(path.join(root, 'src', 'old.ts'), 'export {};\n');
  return root;
}

describe('NodeWorkspaceFiles', () => {
  it('calls a deleted file gone, an existing one not, and leaves paths outside the workspace alone', async () => {
    const root = await workspace();
    const files = new NodeWorkspaceFiles(() => [root]);
    expect(await files.gone(['src/old.ts', 'src/parser/index.ts', 'src/parser', 'lodash/fp'])).toEqual([]);
    await fs.rm(path.join(root, 'src', 'old.ts'));
    await fs.rm(path.join(root, 'src', 'parser'), { recursive: true });
    expect(await files.gone(['src/old.ts', 'src/parser/index.ts', 'src/parser', 'lodash/fp', 'src/../../etc'])).toEqual(['src/old.ts', 'src/parser/index.ts', 'src/parser']);
  });

  it('counts a path as present when any workspace folder has it', async () => {
    const [first, second] = [await workspace(), await workspace()];
    await fs.rm(path.join(first, 'src', 'old.ts'));
    expect(await new NodeWorkspaceFiles(() => [first, second]).gone(['src/old.ts'])).toEqual([]);
    expect(await new NodeWorkspaceFiles(() => []).gone(['src/old.ts'])).toEqual([]);
  });

  it('stays bounded: checks at most MAX_STALE_CHECKS paths and answers within a few milliseconds', async () => {
    const root = await workspace();
    const paths = Array.from({ length: 500 }, (_, index) => `src/missing${index}.ts`);
    const started = performance.now();
    const gone = await new NodeWorkspaceFiles(() => [root]).gone(paths);
    expect(gone).toHaveLength(MAX_STALE_CHECKS);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
