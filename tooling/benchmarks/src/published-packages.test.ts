// Published packages ship product code only: `pnpm pack` of each lists no benchmark, test, test
// support or test double, and no export points at one. (This package exists because of that rule,
// so the check lives here.) Needs the packages built: turbo.json makes this package's `test` wait for
// the build of each, prompt-elements included, though this package does not import it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const PUBLISHED = ['packages/graphiti-client', 'packages/memory-core', 'packages/memory-node-storage', 'packages/prompt-elements'];
/** Paths that are not product code: benchmarks, tests, test support and test doubles. */
const NOT_PRODUCT = /(^|\/)(bench|benchmarks?|test-support|testing|fixtures|corpus)(\/|$)|\.test(-child)?\.|test-support|dist-testing/;

/** pnpm as the test was started (turbo → pnpm), else the pinned pnpm through npx. */
function pnpm(args: readonly string[], cwd: string): string {
  const execPath = process.env.npm_execpath;
  const [command, prefix] =
    execPath !== undefined && /pnpm/.test(execPath) ? [process.execPath, [execPath]] : ['npx', ['--yes', 'pnpm@10.34.8']];
  return execFileSync(command, [...prefix, ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

describe('published packages', () => {
  it.each(PUBLISHED)('%s: pnpm pack lists no benchmark or test-support file', (directory) => {
    const listing = JSON.parse(pnpm(['pack', '--dry-run', '--json'], path.join(root, directory))) as { files: { path: string }[] };
    const files = listing.files.map((file) => file.path);
    expect(files.some((file) => file.startsWith('dist/'))).toBe(true);
    expect(files.filter((file) => NOT_PRODUCT.test(file))).toEqual([]);
  });

  it.each(PUBLISHED)('%s: every published export points into the packed dist/', (directory) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, directory, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
      publishConfig?: { exports?: Record<string, unknown> };
    };
    // publishConfig.exports, where present, is what a publish writes (no source condition).
    const published = manifest.publishConfig?.exports ?? manifest.exports;
    const subpaths = Object.keys(published).filter((subpath) => subpath !== './package.json');
    expect(subpaths.filter((subpath) => NOT_PRODUCT.test(subpath))).toEqual([]);
    for (const subpath of subpaths) {
      const target = (published[subpath] as Record<string, string>).import ?? '';
      expect(target, `${directory} export ${subpath}`).toMatch(/^\.\/dist\//);
    }
  });
});
