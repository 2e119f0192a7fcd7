import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { HOOK_INPUT_TOO_LARGE, MAX_HOOK_INPUT_BYTES, parseHookInput } from './hook-input.js';
import { readHookStdin } from './hook-stdin.js';

describe('readHookStdin', () => {
  it('hands on an input over the bound as too large, which parses as a prompt too large (not bad JSON)', async () => {
    const stdin = new PassThrough();
    const read = readHookStdin(stdin, 20_000);
    const prompt = JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'p'.repeat(5 * 1024 * 1024) });
    expect(prompt.length).toBeGreaterThan(MAX_HOOK_INPUT_BYTES);
    stdin.end(prompt);
    const text = await read;
    expect(text).toBe(HOOK_INPUT_TOO_LARGE);
    expect(parseHookInput(text)).toEqual({ ok: false, reason: 'prompt-too-large' });
  });

  it('reads an input within the bound whole', async () => {
    const stdin = new PassThrough();
    const read = readHookStdin(stdin, 20_000);
    stdin.end(JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'which port?' }));
    const parsed = parseHookInput(await read);
    expect(parsed).toMatchObject({ ok: true, hook: { event: 'UserPromptSubmit', prompt: 'which port?' } });
  });

  it('still says bad JSON for malformed input', () => {
    expect(parseHookInput('{ not json')).toEqual({ ok: false, reason: 'bad-json' });
  });
});
