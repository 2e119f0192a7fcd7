import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultClaudeCodeProjectsFolder } from './default-folders.js';
import { checkPathUnderRoot } from './path-guard.js';
import { TranscriptWatcher, type SessionIdleEvent, type TranscriptWatcherOptions } from './transcript-watcher.js';
import { FileKeyValueStore } from '../stores/file-key-value-store.js';
import { temporaryDirectory } from '../../test-support/journal-fixtures.js';

const watchers: TranscriptWatcher[] = [];

afterEach(async () => {
  await Promise.all(watchers.splice(0).map((watcher) => watcher.close()));
});

function line(role: string, content: string, second: number): string {
  return `${JSON.stringify({ role, content, sessionId: 'session-1', timestamp: `2026-11-05T10:00:${String(second).padStart(2, '0')}Z` })}\n`;
}

async function startWatcher(options: Omit<TranscriptWatcherOptions, 'onSessionIdle'>, events: SessionIdleEvent[], fail = () => false): Promise<TranscriptWatcher> {
  const watcher = await TranscriptWatcher.start({
    idleMs: 150,
    debounceMs: 20,
    format: 'jsonl',
    ...options,
    onSessionIdle: (event) => {
      if (fail()) throw new Error('ingestion unavailable');
      events.push(event);
    },
  });
  watchers.push(watcher);
  return watcher;
}

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('TranscriptWatcher', () => {
  it('hands over new turns once a session is idle, keeping a partial last line for later', async () => {
    const root = await temporaryDirectory();
    const offsets = await FileKeyValueStore.open(path.join(root, '..', `${path.basename(root)}-offsets.json`));
    const events: SessionIdleEvent[] = [];
    await startWatcher({ root, offsets }, events);
    const file = path.join(root, 'project', 'session-1.jsonl');
    await fs.mkdir(path.dirname(file));
    const second = line('user', 'Second question', 3);
    await fs.writeFile(file, line('user', 'First question', 1) + line('assistant', 'First answer', 2) + second.slice(0, 10));
    await waitFor(() => events.length === 1);
    expect(events[0]?.newTurns.map((turn) => [turn.user.text, turn.assistant?.text])).toEqual([['First question', 'First answer']]);
    expect(events[0]).toMatchObject({ sessionId: 'session-1', newLines: 2, format: 'jsonl' });

    await fs.appendFile(file, second.slice(10) + line('assistant', 'Second answer', 4));
    await waitFor(() => events.length === 2);
    expect(events[1]?.newTurns.map((turn) => turn.user.text)).toEqual(['Second question']);
    expect(events[1]?.newLines).toBe(2);
  });

  it('resumes from the persisted offset after a restart: nothing re-delivered, nothing skipped', async () => {
    const root = await temporaryDirectory();
    const offsetsFile = path.join(root, '..', `${path.basename(root)}-offsets.json`);
    const file = path.join(root, 'session-1.jsonl');
    await fs.writeFile(file, line('user', 'One', 1) + line('assistant', 'Answer one', 2));
    const events: SessionIdleEvent[] = [];
    const first = await startWatcher({ root, offsets: await FileKeyValueStore.open(offsetsFile) }, events);
    await waitFor(() => events.length === 1);
    await first.close();
    await fs.appendFile(file, line('user', 'Two', 3) + line('assistant', 'Answer two', 4));
    await startWatcher({ root, offsets: await FileKeyValueStore.open(offsetsFile) }, events);
    await waitFor(() => events.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(events.map((event) => event.newTurns.map((turn) => turn.user.text))).toEqual([['One'], ['Two']]);
  });

  it('does not advance the offset when the hand-over fails, and retries', async () => {
    const root = await temporaryDirectory();
    const offsets = await FileKeyValueStore.open(path.join(root, '..', `${path.basename(root)}-offsets.json`));
    let failures = 1;
    const events: SessionIdleEvent[] = [];
    const watcher = await startWatcher({ root, offsets }, events, () => failures-- > 0);
    await fs.writeFile(path.join(root, 'a.jsonl'), line('user', 'Kept', 1) + line('assistant', 'Yes', 2));
    await waitFor(() => events.length === 1);
    expect(events[0]?.newTurns.map((turn) => turn.user.text)).toEqual(['Kept']);
    expect(watcher.stats().failedDeliveries).toBe(1);
  });

  it('skips the current content of existing files when asked', async () => {
    const root = await temporaryDirectory();
    const file = path.join(root, 'old.jsonl');
    await fs.writeFile(file, line('user', 'Old', 1) + line('assistant', 'Old answer', 2));
    const events: SessionIdleEvent[] = [];
    await startWatcher({ root, offsets: await FileKeyValueStore.open(path.join(root, '..', `${path.basename(root)}-o.json`)), existingFiles: 'skip' }, events);
    await fs.appendFile(file, line('user', 'New', 3) + line('assistant', 'New answer', 4));
    await waitFor(() => events.length === 1);
    expect(events[0]?.newTurns.map((turn) => turn.user.text)).toEqual(['New']);
  });

  it('refuses paths outside the root, with .., and symlinks that escape it', async () => {
    const root = await temporaryDirectory();
    const outside = await temporaryDirectory();
    const secret = path.join(outside, 'secret.jsonl');
    await fs.writeFile(secret, line('user', 'Not yours', 1) + line('assistant', 'No', 2));
    await fs.symlink(secret, path.join(root, 'link.jsonl'));
    const events: SessionIdleEvent[] = [];
    const watcher = await startWatcher({ root, offsets: await FileKeyValueStore.open(path.join(outside, 'offsets.json')) }, events);
    expect(await watcher.processFile(secret)).toEqual({ ok: false, reason: 'outside-root' });
    expect(await watcher.processFile(`${root}/../${path.basename(outside)}/secret.jsonl`)).toEqual({ ok: false, reason: 'parent-segment' });
    expect(await watcher.processFile(path.join(root, 'link.jsonl'))).toEqual({ ok: false, reason: 'symlink-escape' });
    expect(await watcher.processFile(path.join(root, 'missing.jsonl'))).toEqual({ ok: false, reason: 'missing' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(events).toEqual([]);
    expect(watcher.stats().refused).toBeGreaterThanOrEqual(4);
  });

  it('processFile hands over at once and reports how many turns', async () => {
    const root = await temporaryDirectory();
    await fs.writeFile(path.join(root, 's.jsonl'), line('user', 'Now', 1) + line('assistant', 'Done', 2));
    const events: SessionIdleEvent[] = [];
    const watcher = await startWatcher({ root, offsets: await FileKeyValueStore.open(path.join(root, '..', `${path.basename(root)}-p.json`)), idleMs: 60_000 }, events);
    expect(await watcher.processFile('s.jsonl')).toEqual({ ok: true, deliveredTurns: 1 });
    expect(await watcher.processFile('s.jsonl')).toEqual({ ok: true, deliveredTurns: 0 });
  });

  it('processAll reads every transcript under the root at once, nested ones included', async () => {
    const root = await temporaryDirectory();
    await fs.mkdir(path.join(root, 'nested'));
    await fs.writeFile(path.join(root, 'a.jsonl'), line('user', 'A', 1) + line('assistant', 'Yes', 2));
    await fs.writeFile(path.join(root, 'nested', 'b.jsonl'), line('user', 'B', 3) + line('assistant', 'No', 4));
    await fs.writeFile(path.join(root, 'notes.txt'), 'not a transcript\n');
    const events: SessionIdleEvent[] = [];
    const watcher = await startWatcher({ root, offsets: await FileKeyValueStore.open(path.join(root, '..', `${path.basename(root)}-all.json`)), idleMs: 60_000 }, events);
    expect(await watcher.processAll()).toBe(2);
    expect(events.flatMap((event) => event.newTurns.map((turn) => turn.user.text)).sort()).toEqual(['A', 'B']);
    expect(await watcher.processAll()).toBe(0);
  });

  it('hands over only the newest backfillTurns of a session met for the first time, then every new turn', async () => {
    const root = await temporaryDirectory();
    let transcript = '';
    for (let index = 0; index < 30; index++) transcript += line('user', `Question ${index}`, index) + line('assistant', `Answer ${index}`, index);
    await fs.writeFile(path.join(root, 'old.jsonl'), transcript);
    const events: SessionIdleEvent[] = [];
    const offsets = await FileKeyValueStore.open(path.join(root, '..', `${path.basename(root)}-backfill.json`));
    const watcher = await startWatcher({ root, offsets, idleMs: 60_000, backfillTurns: 5 }, events);
    expect(await watcher.processAll()).toBe(5);
    expect(events[0]?.newTurns.map((turn) => turn.user.text)).toEqual(['Question 25', 'Question 26', 'Question 27', 'Question 28', 'Question 29']);
    expect(events[0]?.skippedTurns).toBe(25);
    // Later turns of the same session are all handed over, and the skipped ones never come back.
    await fs.appendFile(path.join(root, 'old.jsonl'), line('user', 'Later 1', 50) + line('assistant', 'A', 51) + line('user', 'Later 2', 52) + line('assistant', 'B', 53));
    expect(await watcher.processAll()).toBe(2);
    await watcher.close();
    const restarted = await startWatcher({ root, offsets, idleMs: 60_000, backfillTurns: 5 }, events);
    expect(await restarted.processAll()).toBe(0);
    expect(events.flatMap((event) => event.newTurns)).toHaveLength(7);
  });

  it('bounds the backfill of a VS Code chat session and remembers the skipped turns as handed over', async () => {
    const root = await temporaryDirectory();
    const requests = Array.from({ length: 8 }, (_, index) => ({ requestId: `request_${index}`, message: { text: `Q${index}` }, response: [{ value: `A${index}` }], modelState: { value: 1 } }));
    await fs.writeFile(path.join(root, 'chat.jsonl'), `${JSON.stringify({ kind: 0, v: { version: 3, sessionId: 'c', requests } })}\n`);
    const events: SessionIdleEvent[] = [];
    const offsets = await FileKeyValueStore.open(path.join(root, '..', `${path.basename(root)}-vsb.json`));
    const watcher = await startWatcher({ root, offsets, format: 'vscode-chat', idleMs: 60_000, backfillTurns: 3 }, events);
    expect(await watcher.processAll()).toBe(3);
    expect(events[0]?.newTurns.map((turn) => turn.user.text)).toEqual(['Q5', 'Q6', 'Q7']);
    expect(await watcher.processAll()).toBe(0);
  });

  it('names VS Code chat turns by the file when the session has no id, and skips an unknown version with one log line', async () => {
    const root = await temporaryDirectory();
    const request = { requestId: 'request_1', message: { text: 'Question' }, response: [{ value: 'Answer' }], modelState: { value: 1 } };
    await fs.writeFile(path.join(root, 'abc-123.jsonl'), `${JSON.stringify({ kind: 0, v: { version: 3, requests: [request] } })}\n`);
    await fs.writeFile(path.join(root, 'future.jsonl'), `${JSON.stringify({ kind: 0, v: { version: 99, sessionId: 'f', requests: [request] } })}\n`);
    const warnings: string[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: (message: string) => warnings.push(message), error: () => undefined };
    const events: SessionIdleEvent[] = [];
    const watcher = await startWatcher(
      { root, offsets: await FileKeyValueStore.open(path.join(root, '..', `${path.basename(root)}-vs.json`)), format: 'vscode-chat', idleMs: 60_000, logger },
      events,
    );
    expect(await watcher.processAll()).toBe(1);
    expect(events.flatMap((event) => event.newTurns.map((turn) => turn.sessionId))).toEqual(['abc-123']);
    await fs.appendFile(path.join(root, 'future.jsonl'), '\n');
    expect(await watcher.processAll()).toBe(0);
    expect(warnings.filter((warning) => warning.includes('unknown format version'))).toHaveLength(1);
  });
});

describe('checkPathUnderRoot', () => {
  it('accepts a file under the root and returns its real path', async () => {
    const root = await temporaryDirectory();
    await fs.writeFile(path.join(root, 'a.jsonl'), '');
    expect(await checkPathUnderRoot(root, 'a.jsonl')).toEqual({ ok: true, realPath: await fs.realpath(path.join(root, 'a.jsonl')) });
  });
});

describe('defaultClaudeCodeProjectsFolder', () => {
  it('is ~/.claude/projects, or under CLAUDE_CONFIG_DIR when set', () => {
    expect(defaultClaudeCodeProjectsFolder({})).toMatch(/[\\/]\.claude[\\/]projects$/);
    expect(defaultClaudeCodeProjectsFolder({ CLAUDE_CONFIG_DIR: '/opt/claude' })).toBe(path.join('/opt/claude', 'projects'));
  });
});
