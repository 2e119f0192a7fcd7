import { describe, expect, it } from 'vitest';
import { parseLoopMarkers } from './loop-markers.js';

describe('parseLoopMarkers', () => {
  it('opens a loop for TODO:, todo:, next:, next time, and follow-up: lines, after bullets and quotes', () => {
    const text = [
      'Summary of the work.',
      'TODO: add a migration test for the retry budget',
      '- todo: rename the flag',
      '> next: check the deploy script',
      'Next time, check why the staging deploy is slow.',
      '* Follow-up: ask Ada about the cache',
      'follow up: bump zod',
    ].join('\n');
    expect(parseLoopMarkers(text)).toEqual([
      { action: 'open', marker: 'todo', text: 'add a migration test for the retry budget' },
      { action: 'open', marker: 'todo', text: 'rename the flag' },
      { action: 'open', marker: 'next', text: 'check the deploy script' },
      { action: 'open', marker: 'next', text: 'check why the staging deploy is slow.' },
      { action: 'open', marker: 'follow-up', text: 'ask Ada about the cache' },
      { action: 'open', marker: 'follow-up', text: 'bump zod' },
    ]);
  });

  it('closes with done: and task_update marking done or dropped; task_update alone opens', () => {
    expect(parseLoopMarkers('Done: the migration test\ntask_update (done): rename the flag\ntask update: dropped: bump zod\ntask_update: write the release notes')).toEqual([
      { action: 'done', marker: 'done', text: 'the migration test' },
      { action: 'done', marker: 'task_update', text: 'rename the flag' },
      { action: 'drop', marker: 'task_update', text: 'bump zod' },
      { action: 'open', marker: 'task_update', text: 'write the release notes' },
    ]);
  });

  it('ignores markers inside a sentence, in code fences, in code comments, and empty ones', () => {
    const text = ['My todo: nothing', 'We are done: almost', '```', 'TODO: inside code', '```', '// TODO: a code comment', '    TODO: indented code', 'TODO:   ', 'next steps: none'].join('\n');
    expect(parseLoopMarkers(text)).toEqual([]);
  });

  it('cuts a long line to one loop-sized text', () => {
    const [marker] = parseLoopMarkers(`TODO: ${'x'.repeat(1000)}`);
    expect(marker?.text.length).toBe(300);
    expect(marker?.text.endsWith('…')).toBe(true);
  });
});
