import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPromotionKind, PROMOTION_KINDS, type PromotionKind } from '../promotion/episode-format.js';
import { parseDirectives, type MemoryDirective } from './index.js';

describe('parseDirectives', () => {
  it('finds the directives of a message with their kind, scope and text', () => {
    const message = [
      'Some context first.',
      'preference: use pnpm, never npm',
      'Decision (workspace): adopt zod for settings',
      'terminology (user): "ADR" means architecture decision record',
      'lesson learned: run the emulator before the e2e tests',
      'lesson_learned: pin Node 20',
      'Procedure: build, then test, then lint',
      'TASK UPDATE: the outbox is done',
      'task_update (project): ship on Friday',
    ].join('\n');
    expect(parseDirectives(message)).toEqual<MemoryDirective[]>([
      { kind: 'preference', scope: 'workspace', text: 'use pnpm, never npm', scopeWasExplicit: false },
      { kind: 'decision', scope: 'workspace', text: 'adopt zod for settings', scopeWasExplicit: true },
      { kind: 'terminology', scope: 'user', text: '"ADR" means architecture decision record', scopeWasExplicit: true },
      { kind: 'lesson_learned', scope: 'workspace', text: 'run the emulator before the e2e tests', scopeWasExplicit: false },
      { kind: 'lesson_learned', scope: 'workspace', text: 'pin Node 20', scopeWasExplicit: false },
      { kind: 'procedure', scope: 'workspace', text: 'build, then test, then lint', scopeWasExplicit: false },
      { kind: 'task_update', scope: 'workspace', text: 'the outbox is done', scopeWasExplicit: false },
      { kind: 'task_update', scope: 'workspace', text: 'ship on Friday', scopeWasExplicit: true },
    ]);
  });

  it('accepts list bullets, quote markers and nested list indentation', () => {
    const message = '- preference: tabs\n* decision: a\n+ procedure: b\n1. terminology: c\n2) lesson learned: d\n> preference (user): e\n>> - decision: f\n    - task update: g';
    expect(parseDirectives(message).map((directive) => directive.text)).toEqual(['tabs', 'a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('treats a missing or unknown scope as workspace, not explicit', () => {
    expect(parseDirectives('preference (squad): x\npreference (): y\npreference (Personal): z')).toEqual([
      { kind: 'preference', scope: 'workspace', text: 'x', scopeWasExplicit: false },
      { kind: 'preference', scope: 'workspace', text: 'y', scopeWasExplicit: false },
      { kind: 'preference', scope: 'user', text: 'z', scopeWasExplicit: true },
    ]);
    expect(parseDirectives('preference (constructor): x\npreference (__proto__): y').map((directive) => directive.scope)).toEqual([
      'workspace',
      'workspace',
    ]);
  });

  it('takes (team) as the shared team scope, explicitly (the promotion still needs the team consent)', () => {
    expect(parseDirectives('decision (team): adopt zod\n- procedure (Team): release on Fridays')).toEqual([
      { kind: 'decision', scope: 'team', text: 'adopt zod', scopeWasExplicit: true },
      { kind: 'procedure', scope: 'team', text: 'release on Fridays', scopeWasExplicit: true },
    ]);
  });

  it('ignores keywords in the middle of a sentence, plurals and empty directives', () => {
    const message = [
      'my preference: use yarn',
      'We discussed it and the decision: adopt zod',
      'Preferences: many',
      'preference:',
      'decision:    ',
      '`preference: inline code`',
      '**decision:** bold is not a directive',
      'preferenceX: y',
    ].join('\n');
    expect(parseDirectives(message)).toEqual([]);
  });

  it('ignores fenced and indented code blocks', () => {
    const message = [
      '```yaml',
      'preference: inside a fence',
      '```',
      'preference: after the fence',
      '~~~~',
      'decision: inside tildes',
      '~~~',
      'decision: still inside (closing fence too short)',
      '~~~~',
      '    procedure: indented code',
      '> ```',
      '> terminology: quoted fence',
      '> ```',
      'task update: last',
      '````',
      'lesson learned: unclosed fence swallows the rest',
    ].join('\n');
    expect(parseDirectives(message).map((directive) => directive.text)).toEqual(['after the fence', 'last']);
  });

  it('handles CRLF and CR line endings', () => {
    expect(parseDirectives('a\r\npreference: x\r\nb\rdecision: y').map((directive) => directive.text)).toEqual(['x', 'y']);
  });

  it('round-trips generated directives between prose lines', () => {
    const keywordSpellings: Record<PromotionKind, readonly string[]> = {
      decision: ['decision', 'Decision', 'DECISION'],
      lesson_learned: ['lesson learned', 'lesson_learned', 'Lessons-Learned', 'LESSON LEARNED'],
      preference: ['preference', 'Preference'],
      procedure: ['procedure', 'PROCEDURE'],
      task_update: ['task update', 'task_update', 'Task-Update'],
      terminology: ['terminology', 'Terminology'],
    };
    const directiveArbitrary = fc.record({
      kind: fc.constantFrom(...PROMOTION_KINDS),
      scope: fc.constantFrom<'workspace' | 'user' | undefined>('workspace', 'user', undefined),
      text: fc
        .string({ minLength: 1, maxLength: 60, unit: 'grapheme' })
        .map((value) => value.replace(/[\r\n\u2028\u2029\u0085]/g, ' ').trim())
        .filter((value) => value !== ''),
      spelling: fc.nat(3),
      prefix: fc.constantFrom('', '- ', '* ', '1. ', '> ', '  '),
      prose: fc.string({ maxLength: 40 }).map((value) => `Note that ${value.replace(/[\r\n\u2028\u2029\u0085]/g, ' ')}`),
    });
    fc.assert(
      fc.property(fc.array(directiveArbitrary, { maxLength: 8 }), (generated) => {
        const lines: string[] = [];
        for (const item of generated) {
          const spellings = keywordSpellings[item.kind];
          const keyword = spellings[item.spelling % spellings.length] ?? item.kind;
          lines.push(item.prose);
          lines.push(`${item.prefix}${keyword}${item.scope === undefined ? '' : ` (${item.scope})`}: ${item.text}`);
        }
        expect(parseDirectives(lines.join('\n'))).toEqual(
          generated.map((item) => ({
            kind: item.kind,
            scope: item.scope ?? 'workspace',
            text: item.text,
            scopeWasExplicit: item.scope !== undefined,
          })),
        );
      }),
    );
  });

  it('finds nothing in text without a colon, or whose lines open with an ordinary word', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (value) => {
        expect(parseDirectives(value.replace(/:/g, ' '))).toEqual([]);
        const prose = value
          .split(/\r\n|\r|\n/)
          .map((line) => `my ${line}`)
          .join('\n');
        expect(parseDirectives(prose)).toEqual([]);
      }),
    );
  });

  it('never throws on arbitrary input and returns well-formed directives', () => {
    const keywordSoup = fc
      .array(
        fc.oneof(
          fc.string({ maxLength: 12, unit: 'binary' }),
          fc.constantFrom('preference', 'decision (user)', ':', '\n', '```', '~~~', '> ', '- ', '(', ')', '    ', 'lesson_learned'),
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), keywordSoup), (value) => {
        for (const directive of parseDirectives(value)) {
          expect(isPromotionKind(directive.kind)).toBe(true);
          expect(['workspace', 'user']).toContain(directive.scope);
          expect(directive.text).toBe(directive.text.trim());
          expect(directive.text).not.toBe('');
          expect(directive.text).not.toMatch(/[\r\n]/);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('stays linear on long lines of whitespace', () => {
    const long = `preference${' '.repeat(200_000)}x`;
    expect(parseDirectives(long)).toEqual([]);
    expect(parseDirectives(`${' '.repeat(100_000)}- decision: y`)).toHaveLength(1);
  });
});
