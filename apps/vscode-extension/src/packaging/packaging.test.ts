// What activation loads and what the VSIX ships: the entry bundle stays small and free of the
// runtime's dependencies, and the packaging check refuses source maps and oversized archives.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'graphiti-memory-packaging-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Bundles in memory as esbuild.mjs does for the VSIX (CommonJS for Node 20, `vscode` external). */
function bundle(options: esbuild.BuildOptions) {
  return esbuild.build({
    ...options,
    absWorkingDir: root,
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    conditions: ['@graphiti-memory/source'],
    metafile: true,
    logLevel: 'silent',
  });
}

describe('the entry bundle', () => {
  it('stays under 60 KB and pulls in none of the runtime (no package, no inversify, no undici)', async () => {
    const result = await bundle({ entryPoints: [path.join(root, 'src/extension.ts')], minify: true });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.includes('node_modules') || !input.startsWith('src/'))).toEqual([]);
    expect(inputs).not.toContain('src/runtime.ts');
    expect(result.outputFiles[0]?.contents.byteLength).toBeLessThan(60 * 1024);
  });
});

describe('the runtime bundle', () => {
  const plugin = async () =>
    (await import(pathToFileURL(path.join(root, 'shared-stack-plugin.mjs')).href)) as {
      SHARED_STACK: Record<string, string>;
      sharedStack(core: string): esbuild.Plugin;
    };

  it("takes the libraries it shares with the hook runner's core from that core instead of carrying them", async () => {
    const { sharedStack } = await plugin();
    const result = await bundle({
      entryPoints: [path.join(root, 'src/runtime.ts')],
      mainFields: ['module', 'main'],
      jsx: 'transform',
      jsxFactory: 'vscpp',
      jsxFragment: 'vscppf',
      plugins: [sharedStack('hook-runner-core-0123456789ab.cjs')],
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.includes('node_modules') || input.includes('packages/'))).toEqual([]);
    expect(result.outputFiles[0]?.text).toContain('require("./hook-runner-core-0123456789ab.cjs")');
  });

  it("reads its map from the one list the runner's core exports: every library the runtime shares", async () => {
    const { SHARED_STACK } = await plugin();
    const exported = fs.readFileSync(path.join(root, '../../packages/agent-hooks/src/hook/shared-stack.ts'), 'utf8');
    expect(Object.keys(SHARED_STACK).length).toBe(exported.match(/^export \* as /gm)?.length);
    // The libraries whose second copy in the VSIX would split inversify or double its size.
    expect(SHARED_STACK).toMatchObject({ inversify: 'inversify', '@graphiti-memory/memory-core': 'memoryCore', '@graphiti-memory/agent-hooks': 'agentHooks', '@vscode/prompt-tsx': 'promptTsx' });
  });
});

/** A zip archive with the given names (central directory only: all the check reads). */
function zipWith(names: readonly string[], padding = 0): string {
  const entries = names.map((name) => {
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(Buffer.byteLength(name), 28);
    return Buffer.concat([header, Buffer.from(name)]);
  });
  const directory = Buffer.concat(entries);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(names.length, 8);
  end.writeUInt16LE(names.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(padding, 16);
  const file = path.join(work, `archive-${names.length}-${padding}.vsix`);
  fs.writeFileSync(file, Buffer.concat([Buffer.alloc(padding), directory, end]));
  return file;
}

function check(file: string): { readonly status: number | null; readonly output: string } {
  const run = spawnSync(process.execPath, [path.join(root, 'scripts/check-vsix.mjs'), file], { encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

const RUNNER = ['extension/dist/hook-runner.cjs', 'extension/dist/hook-runner-core-0123456789ab.cjs'];

describe('the VSIX packaging check', () => {
  it('accepts the bundles, the hook runner (entry and core), the manifest and the icon', () => {
    const result = check(zipWith(['extension/dist/extension.cjs', 'extension/dist/runtime.cjs', ...RUNNER, 'extension/package.json']));
    expect(result).toMatchObject({ status: 0 });
  });

  it.each([
    ['no core', ['extension/dist/hook-runner.cjs']],
    ['two cores', [...RUNNER, 'extension/dist/hook-runner-core-ba9876543210.cjs']],
    ['no entry', ['extension/dist/hook-runner-core-0123456789ab.cjs']],
  ])('refuses a VSIX whose hook runner is incomplete (%s)', (_label, runner) => {
    const result = check(zipWith(['extension/dist/extension.cjs', 'extension/dist/runtime.cjs', ...runner, 'extension/package.json']));
    expect(result.status).toBe(1);
    expect(result.output).toContain('must carry dist/hook-runner.cjs and exactly one dist/hook-runner-core-*.cjs');
  });

  it('refuses a VSIX that carries a source map, naming it', () => {
    const result = check(zipWith(['extension/dist/extension.cjs', ...RUNNER, 'extension/dist/runtime.cjs.map']));
    expect(result.status).toBe(1);
    expect(result.output).toContain('carries source maps: extension/dist/runtime.cjs.map');
  });

  it('refuses a VSIX of 680 KB or more', () => {
    const result = check(zipWith(['extension/dist/extension.cjs', ...RUNNER], 680 * 1000));
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/is \d+ bytes, over the 680000-byte budget/);
  });

  it('ships no source maps by its ignore file', () => {
    const ignore = fs.readFileSync(path.join(root, '.vscodeignore'), 'utf8');
    expect(ignore.split('\n').filter((line) => line.startsWith('!') && line.endsWith('.map'))).toEqual([]);
  });
});
