import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventMarkersFolder, firstRunOfEvent, SAME_EVENT_WINDOW_MS } from './event-once.js';
import { parseHookInput, type HookEvent } from './hook-input.js';

let state: string;
beforeEach(async () => {
  state = await fs.mkdtemp(path.join(os.tmpdir(), 'event-once-'));
});
afterEach(async () => {
  await fs.rm(state, { recursive: true, force: true });
});

const hookOf = (text: string, event: string, agent?: string): HookEvent => {
  const read = parseHookInput(text, event, agent);
  if (!read.ok) throw new Error(read.reason);
  return read.hook;
};

describe('one event, once', () => {
  it("Copilot CLI's prompt through its own file and a repository's .claude/settings.json: the second run is silent, the next prompt answers", async () => {
    const own = hookOf(JSON.stringify({ sessionId: 's1', timestamp: 1795911808582, cwd: '/w', prompt: 'How do we deploy?' }), 'UserPromptSubmit', 'copilot-cli');
    const claudeShaped = hookOf(JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's1', timestamp: '2026-11-29T00:23:28.582Z', cwd: '/w', prompt: 'How do we deploy?' }), 'UserPromptSubmit');
    const now = Date.now();
    const both = await Promise.all([firstRunOfEvent(state, own, now), firstRunOfEvent(state, claudeShaped, now)]);
    expect(both.sort()).toEqual([false, true]);
    expect(await firstRunOfEvent(state, { ...own, prompt: 'And how do we roll back?' }, now)).toBe(true);
    // The same words again, later: a new event.
    expect(await firstRunOfEvent(state, own, now + SAME_EVENT_WINDOW_MS + 1_000)).toBe(true);
  });

  it("VS Code's SessionStart through ~/.claude/settings.json and ~/.copilot/hooks: answered once", async () => {
    const start = hookOf(JSON.stringify({ hook_event_name: 'SessionStart', session_id: 'v1', source: 'new', transcript_path: '/u/workspaceStorage/x/GitHub.copilot-chat/transcripts/v1.jsonl' }), 'SessionStart');
    expect(await firstRunOfEvent(state, start)).toBe(true);
    expect(await firstRunOfEvent(state, start)).toBe(false);
    expect(await firstRunOfEvent(state, { ...start, sessionId: 'v2' })).toBe(true);
  });

  it('leaves Claude Code (one hook file) and turn ends unmarked: every run answers', async () => {
    const prompt = hookOf(JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'c1', prompt: 'again', transcript_path: '/h/.claude/projects/p/c1.jsonl' }), 'UserPromptSubmit');
    expect(await firstRunOfEvent(state, prompt)).toBe(true);
    expect(await firstRunOfEvent(state, prompt)).toBe(true);
    const stop = hookOf(JSON.stringify({ sessionId: 's1', timestamp: 1, transcriptPath: '/t/events.jsonl' }), 'Stop', 'copilot-cli');
    expect(await firstRunOfEvent(state, stop)).toBe(true);
    expect(await firstRunOfEvent(state, stop)).toBe(true);
  });

  it('prunes old markers when a session starts, keeping the folder bounded', async () => {
    const prompt = hookOf(JSON.stringify({ sessionId: 's1', timestamp: 1, prompt: 'p' }), 'UserPromptSubmit', 'copilot-cli');
    await firstRunOfEvent(state, prompt);
    const [marker] = await fs.readdir(eventMarkersFolder(state));
    const old = new Date(Date.now() - 60 * 60_000);
    await fs.utimes(path.join(eventMarkersFolder(state), marker ?? ''), old, old);
    await firstRunOfEvent(state, hookOf(JSON.stringify({ sessionId: 's2', timestamp: 2, source: 'new' }), 'SessionStart', 'copilot-cli'));
    expect(await fs.readdir(eventMarkersFolder(state))).toHaveLength(1);
  });
});
