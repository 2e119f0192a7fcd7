import { describe, expect, it } from 'vitest';
import { pathsNamedIn } from './stale-paths.js';

describe('pathsNamedIn', () => {
  it('finds relative paths of two or more segments, without quotes, punctuation, ./ or a trailing slash', () => {
    expect(pathsNamedIn('The parser lives in `src/parser/index.ts`, see ./scripts/build.sh and packages/core/.')).toEqual([
      'src/parser/index.ts',
      'scripts/build.sh',
      'packages/core',
    ]);
  });

  it('leaves out URLs, absolute paths, parent references, bare file names and repeated paths', () => {
    expect(pathsNamedIn('See https://example.com/a/b and /etc/passwd and ../secret/x and README.md and src/a.ts then src/a.ts')).toEqual(['src/a.ts']);
  });

  it('takes no overlong word for a path', () => {
    expect(pathsNamedIn(`src/${'a'.repeat(300)}.ts`)).toEqual([]);
  });
});
