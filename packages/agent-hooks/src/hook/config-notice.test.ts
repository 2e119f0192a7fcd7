import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configNoticeOutput, configNoticeText } from './config-notice.js';

let state: string;
beforeEach(async () => {
  state = await fs.mkdtemp(path.join(os.tmpdir(), 'config-notice-'));
});
afterEach(async () => {
  await fs.rm(state, { recursive: true, force: true });
});

describe('configNoticeOutput', () => {
  const text = configNoticeText(['/home/u/.config/graphiti-memory/config.json: unknown key `endpiont`; did you mean `endpoint`?']);

  it('is a top-level systemMessage (never additionalContext), once per session, for the events a host shows', async () => {
    const first = await configNoticeOutput(state, 'UserPromptSubmit', 's1', text);
    expect(JSON.parse(first ?? '')).toEqual({ systemMessage: text });
    expect(first).not.toContain('additionalContext');
    expect(await configNoticeOutput(state, 'UserPromptSubmit', 's1', text)).toBeUndefined();
    expect(await configNoticeOutput(state, 'SessionStart', 's1', text)).toBeUndefined();
    expect(await configNoticeOutput(state, 'SessionStart', 's2', text)).toBeDefined();
    expect(await configNoticeOutput(state, 'Stop', 's3', text)).toBeUndefined();
  });

  it('is said once even when events of one session run at once', async () => {
    const outputs = await Promise.all(Array.from({ length: 8 }, () => configNoticeOutput(state, 'UserPromptSubmit', 's1', text)));
    expect(outputs.filter((output) => output !== undefined)).toHaveLength(1);
  });

  it('says a changed problem again in the same session', async () => {
    expect(await configNoticeOutput(state, 'UserPromptSubmit', 's1', text)).toBeDefined();
    expect(await configNoticeOutput(state, 'UserPromptSubmit', 's1', configNoticeText(['other problem']))).toBeDefined();
  });

  it('names the file, the key and the nearest key, and never advises deleting the file', () => {
    expect(text).toContain('config.json: unknown key `endpiont`; did you mean `endpoint`?');
    expect(text).not.toMatch(/delete/i);
  });
});
