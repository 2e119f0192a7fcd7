import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChatTurn, IngestionStats, TranscriptFilterOption } from '@graphiti-memory/memory-core';
import { transcriptLedgerFile } from '@graphiti-memory/memory-node-storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HookContext } from './hook-context.js';
import { handleSessionStop } from './session-stop.js';
import { captureTranscript, readTranscriptTurns, type CaptureTarget } from './transcript-capture.js';

/** Records what reaches ingestion; `backfill` keeps the newest `limit` turns, as memory-core's does. */
class RecordingTarget implements CaptureTarget {
  readonly enqueued: ChatTurn[] = [];
  readonly backfills: number[] = [];
  readonly ended: string[] = [];
  flushes = 0;
  readonly ingestion = {
    enqueue: (turn: ChatTurn): void => void this.enqueued.push(turn),
    backfill: (turns: readonly ChatTurn[], options: { readonly limit: number }): number => {
      this.backfills.push(options.limit);
      const selected = options.limit === 0 ? [] : turns.slice(-options.limit);
      this.enqueued.push(...selected);
      return selected.length;
    },
    settled: async (): Promise<void> => {},
    endSessions: (sessionIds: Iterable<string>): void => void this.ended.push(...new Set(sessionIds)),
  };
  readonly outbox = { flush: async (): Promise<void> => void this.flushes++ };
}

let root: string;
let stateDirectory: string;
let transcript: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'transcript-capture-'));
  stateDirectory = path.join(root, 'state');
  transcript = path.join(root, 'session.jsonl');
});

afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(root, { recursive: true, force: true });
});

const at = (second: number): string => new Date(Date.UTC(2026, 10, 23, 9, 0, 0) + second * 1000).toISOString();

function claudeLine(line: Record<string, unknown>): string {
  return `${JSON.stringify({ parentUuid: null, isSidechain: false, userType: 'external', cwd: root, sessionId: 'claude-1', version: '2.1.112', ...line })}\n`;
}
const claudePrompt = (uuid: string, text: string, second: number): string => claudeLine({ type: 'user', uuid, timestamp: at(second), message: { role: 'user', content: text } });
function claudeReply(uuid: string, text: string, second: number, stopReason: string | null = 'end_turn'): string {
  return claudeLine({ type: 'assistant', uuid, timestamp: at(second), message: { role: 'assistant', content: [{ type: 'text', text }], stop_reason: stopReason } });
}
function claudeTurns(from: number, to: number): string {
  let text = '';
  for (let index = from; index <= to; index++) text += claudePrompt(`u-${index}`, `Question ${index}?`, index * 2) + claudeReply(`a-${index}`, `Answer ${index}.`, index * 2 + 1);
  return text;
}

function copilotLine(type: string, id: string, data: Record<string, unknown>): string {
  return `${JSON.stringify({ type, data, id, timestamp: at(0), parentId: null })}\n`;
}
const copilotStart = copilotLine('session.start', 'e0', { sessionId: 'copilot-1', version: 1, producer: 'copilot-agent', startTime: at(0) });

async function stop(target: CaptureTarget, options: { readonly sessionEnded?: boolean; readonly backfillTurns?: number } = {}) {
  const turns = await readTranscriptTurns(transcript, { sessionEnded: options.sessionEnded ?? false });
  if (!Array.isArray(turns)) throw new Error(`transcript not read: ${turns.outcome}`);
  return captureTranscript(target, stateDirectory, transcript, turns, { backfillTurns: options.backfillTurns ?? 20, sessionEnded: options.sessionEnded ?? false, endpoint: 'http://127.0.0.1:8000' });
}

const ids = (turns: readonly ChatTurn[]): string[] => turns.map((turn) => turn.id);

describe('Stop on a transcript the hooks never saw before', () => {
  it('takes only its newest backfillTurns turns, counts the older ones as taken, and then every new turn', async () => {
    await fs.writeFile(transcript, claudeTurns(1, 50));
    const target = new RecordingTarget();
    expect(await stop(target)).toEqual({ turns: 20, olderTurnsLeftOut: 30 });
    expect(ids(target.enqueued)).toEqual(Array.from({ length: 20 }, (_, index) => `u-${index + 31}`));
    expect(target.flushes).toBe(1);
    // The older turns are not offered again by the next Stop.
    expect(await stop(target)).toEqual({ turns: 0, olderTurnsLeftOut: 0 });
    expect(target.enqueued).toHaveLength(20);
    // Seen now: more new turns than the bound are all taken.
    await fs.appendFile(transcript, claudeTurns(51, 75));
    expect(await stop(target)).toEqual({ turns: 25, olderTurnsLeftOut: 0 });
    expect(ids(target.enqueued.slice(20))).toEqual(Array.from({ length: 25 }, (_, index) => `u-${index + 51}`));
    expect(target.backfills).toEqual([20]);
  });

  it('honours backfillTurns 0: nothing of the old transcript, and the turns after it', async () => {
    await fs.writeFile(transcript, claudeTurns(1, 5));
    const target = new RecordingTarget();
    expect(await stop(target, { backfillTurns: 0 })).toEqual({ turns: 0, olderTurnsLeftOut: 5 });
    expect(target.enqueued).toEqual([]);
    await fs.appendFile(transcript, claudeTurns(6, 6));
    expect(await stop(target, { backfillTurns: 0 })).toEqual({ turns: 1, olderTurnsLeftOut: 0 });
    expect(ids(target.enqueued)).toEqual(['u-6']);
  });

  it('bounds a transcript whose ledger is damaged as one never seen (the delivery ledger still refuses repeats)', async () => {
    await fs.writeFile(transcript, claudeTurns(1, 30));
    const ledger = transcriptLedgerFile(stateDirectory, transcript);
    await fs.mkdir(path.dirname(ledger), { recursive: true });
    await fs.writeFile(ledger, '{"ids": tor');
    const target = new RecordingTarget();
    expect(await stop(target)).toEqual({ turns: 20, olderTurnsLeftOut: 10 });
    expect(JSON.parse(await fs.readFile(ledger, 'utf8'))).toEqual({ ids: [], endpoints: { 'http://127.0.0.1:8000': Array.from({ length: 30 }, (_, index) => `claude-1\nu-${index + 1}`) } });
  });
});

describe('only finished turns are taken', () => {
  it('leaves a Claude Code turn that waits for a tool untaken, then takes it once with its final reply', async () => {
    await fs.writeFile(transcript, claudeTurns(1, 1) + claudePrompt('u-2', 'Run the tests.', 10));
    await fs.appendFile(
      transcript,
      claudeLine({ type: 'assistant', uuid: 'a-2', timestamp: at(11), message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'pnpm test' } }], stop_reason: 'tool_use' } }),
    );
    const target = new RecordingTarget();
    expect(await stop(target)).toEqual({ turns: 1, olderTurnsLeftOut: 0 });
    expect(ids(target.enqueued)).toEqual(['u-1']);
    await fs.appendFile(
      transcript,
      claudeLine({ type: 'user', uuid: 'r-2', timestamp: at(12), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } }) +
        claudeReply('a-3', 'All tests pass.', 13),
    );
    expect(await stop(target)).toEqual({ turns: 1, olderTurnsLeftOut: 0 });
    expect(target.enqueued[1]).toMatchObject({ id: 'u-2', user: { text: 'Run the tests.' }, assistant: { text: expect.stringContaining('All tests pass.') as string } });
    expect(await stop(target)).toEqual({ turns: 0, olderTurnsLeftOut: 0 });
  });

  it('takes nothing from a Copilot transcript read mid-loop, then the whole turn once the loop ends', async () => {
    await fs.writeFile(
      transcript,
      copilotStart +
        copilotLine('user.message', 'u1', { content: 'Rename the outbox folder to queue.', attachments: [] }) +
        copilotLine('assistant.turn_start', 'e2', { turnId: '0.0' }) +
        copilotLine('assistant.message', 'e3', { messageId: 'm1', content: 'Looking for the imports first.', toolRequests: [{ toolCallId: 't1', name: 'grep_search', arguments: '{}', type: 'function' }] }) +
        copilotLine('tool.execution_start', 'e4', { toolCallId: 't1', toolName: 'grep_search', arguments: {} }) +
        copilotLine('tool.execution_complete', 'e5', { toolCallId: 't1', success: true, result: { content: 'src/outbox/a.ts' } }) +
        // Copilot ends the tool round with turn_end, and may run Stop hooks here.
        copilotLine('assistant.turn_end', 'e6', { turnId: '0.0' }),
    );
    const target = new RecordingTarget();
    expect(await stop(target)).toEqual({ turns: 0, olderTurnsLeftOut: 0 });
    expect(target.enqueued).toEqual([]);
    await fs.appendFile(
      transcript,
      copilotLine('assistant.turn_start', 'e7', { turnId: '0.1' }) +
        copilotLine('assistant.message', 'e8', { messageId: 'm2', content: 'Renamed it and updated the imports.', toolRequests: [] }) +
        copilotLine('assistant.turn_end', 'e9', { turnId: '0.1' }),
    );
    expect(await stop(target)).toEqual({ turns: 1, olderTurnsLeftOut: 0 });
    expect(target.enqueued).toMatchObject([
      { id: 'u1', sessionId: 'copilot-1', user: { text: 'Rename the outbox folder to queue.' }, assistant: { text: 'Looking for the imports first.\n\nRenamed it and updated the imports.' } },
    ]);
    expect(await stop(target)).toEqual({ turns: 0, olderTurnsLeftOut: 0 });
  });

  it('applies the configured filter to a Copilot transcript: code in the reply is one line by default, whole with full', async () => {
    const code = ['```ts', "export const queueFolder = 'queue';", "export const deadLetters = 'queue/dead';", "export const journal = 'queue/journal';", "export const lock = 'queue/lock';", '```'].join('\n');
    await fs.writeFile(
      transcript,
      copilotStart +
        copilotLine('user.message', 'u1', { content: 'Rename the outbox folder to queue.', attachments: [] }) +
        copilotLine('assistant.message', 'e2', { messageId: 'm1', content: `Renamed:\n\n${code}`, toolRequests: [] }) +
        copilotLine('assistant.turn_end', 'e3', { turnId: '0.0' }),
    );
    const reply = async (filter?: TranscriptFilterOption): Promise<string | undefined> => {
      const turns = await readTranscriptTurns(transcript, { sessionEnded: false, ...(filter === undefined ? {} : { filter }) });
      return Array.isArray(turns) ? turns[0]?.assistant?.text : turns.outcome;
    };
    expect(await reply()).toBe('Renamed:\n\n[code: ts, 4 lines]');
    expect(await reply('full')).toBe(`Renamed:\n\n${code}`);
    // Per-kind modes from the configuration: the code dropped, the prose kept.
    expect(await reply({ preset: 'compact', code: 'omit' })).toBe('Renamed:');
  });

  it('takes the last turn as it is at SessionEnd: nothing more will be written', async () => {
    await fs.writeFile(transcript, claudeTurns(1, 1) + claudePrompt('u-2', 'Summarise the change.', 10) + claudeReply('a-2', 'It renames the outbox', 11, null));
    const target = new RecordingTarget();
    expect(await stop(target)).toEqual({ turns: 1, olderTurnsLeftOut: 0 });
    expect(await stop(target, { sessionEnded: true })).toEqual({ turns: 1, olderTurnsLeftOut: 0 });
    expect(ids(target.enqueued)).toEqual(['u-1', 'u-2']);
  });
});

describe('the transcript ledger', () => {
  it('keeps every id when events on one transcript are captured at once (one hook server, one pid)', async () => {
    await fs.writeFile(transcript, claudeTurns(1, 1));
    const target = new RecordingTarget();
    await stop(target);
    await fs.appendFile(transcript, claudeTurns(2, 12));
    const turns = await readTranscriptTurns(transcript, { sessionEnded: false });
    if (!Array.isArray(turns)) throw new Error('transcript not read');
    // Each event offers a different new turn; all write the ledger at once.
    const results = await Promise.all(turns.slice(1).map((turn) => captureTranscript(target, stateDirectory, transcript, [turn], { backfillTurns: 20, endpoint: 'http://127.0.0.1:8000' })));
    expect(results.every((result) => result.turns === 1)).toBe(true);
    const ledger = JSON.parse(await fs.readFile(transcriptLedgerFile(stateDirectory, transcript), 'utf8')) as { endpoints: Record<string, string[]> };
    expect(new Set(ledger.endpoints['http://127.0.0.1:8000'])).toEqual(new Set(turns.map((turn) => `claude-1\n${turn.id}`)));
    expect((await fs.readdir(path.dirname(transcriptLedgerFile(stateDirectory, transcript)))).filter((name) => name.endsWith('.tmp') || name.includes('.json.'))).toEqual([]);
  });
});

describe("Claude Code's lazily written transcript", () => {
  /** A Stop (or SessionEnd) event of Claude Code on `transcript`, as the hook context hands it over. */
  const event = (name: 'Stop' | 'SessionEnd', lastAssistantMessage?: string): HookContext =>
    ({
      hook: { event: name, sessionId: 'claude-1', transcriptPath: transcript, cwd: root, prompt: undefined, ...(lastAssistantMessage === undefined ? {} : { lastAssistantMessage }) },
      config: { filter: undefined },
      stateDirectory,
    }) as unknown as HookContext;

  it("finishes the last turn with Stop's last_assistant_message when the reply is not in the file yet, and sends it once", async () => {
    // The reply Claude Code stopped with is not written yet: only the prompt is in the file.
    await fs.writeFile(transcript, claudeTurns(1, 1) + claudePrompt('u-2', 'How do we deploy?', 10));
    const target = new RecordingTarget();
    expect(await handleSessionStop(event('Stop', 'We deploy with blue-green releases.'), target)).toMatchObject({ outcome: 'queued' });
    expect(target.enqueued.map((turn) => [turn.id, turn.assistant?.text])).toEqual([
      ['u-1', expect.any(String)],
      ['u-2', 'We deploy with blue-green releases.'],
    ]);
    // The reply lands in the file later; SessionEnd takes nothing again.
    await fs.appendFile(transcript, claudeReply('a-2', 'We deploy with blue-green releases.', 11));
    expect(await handleSessionStop(event('SessionEnd'), target)).toMatchObject({ outcome: 'nothing-new' });
    expect(target.enqueued).toHaveLength(2);
  });

  it('reads the transcript once: a reply and a new prompt written during the Stop do not move its reply onto the next turn', async () => {
    await fs.writeFile(transcript, claudeTurns(1, 1) + claudePrompt('u-2', 'How do we deploy?', 10));
    const readFile = fs.readFile.bind(fs);
    // Claude Code goes on writing while the hook runs: right after the hook's read, the reply and the next prompt land.
    const reads = vi.spyOn(fs, 'readFile').mockImplementation((async (...args: Parameters<typeof fs.readFile>) => {
      const text = await readFile(...args);
      if (args[0] === transcript) await fs.appendFile(transcript, claudeReply('a-2', 'We deploy with blue-green releases.', 11) + claudePrompt('u-3', 'And rollbacks?', 12));
      return text;
    }) as typeof fs.readFile);
    const target = new RecordingTarget();
    await handleSessionStop(event('Stop', 'We deploy with blue-green releases.'), target);
    expect(reads.mock.calls.filter(([file]) => file === transcript)).toHaveLength(1);
    expect(target.enqueued.map((turn) => [turn.id, turn.assistant?.text])).toEqual([
      ['u-1', expect.any(String)],
      ['u-2', 'We deploy with blue-green releases.'],
    ]);
  });

  it('without last_assistant_message a Stop still leaves the unfinished turn for later', async () => {
    await fs.writeFile(transcript, claudeTurns(1, 1) + claudePrompt('u-2', 'How do we deploy?', 10));
    const target = new RecordingTarget();
    await handleSessionStop(event('Stop'), target);
    expect(ids(target.enqueued)).toEqual(['u-1']);
  });
});

describe('session digests at SessionEnd', () => {
  it('closes the session (its open digest segment) at SessionEnd, also when no turn is new, and not at Stop', async () => {
    await fs.writeFile(transcript, claudeTurns(1, 2));
    const target = new RecordingTarget();
    await stop(target);
    expect(target.ended).toEqual([]);
    await stop(target, { sessionEnded: true });
    expect(target.ended).toEqual(['claude-1']);
    expect(ids(target.enqueued)).toEqual(['u-1', 'u-2']);
    expect(target.flushes).toBe(2);
  });
});

describe('Stop whose turns another run queued first', () => {
  /** The delivery ledger refuses every message: each enqueued turn counts its two messages as duplicates. */
  class QueuedElsewhereTarget implements CaptureTarget {
    readonly enqueued: ChatTurn[] = [];
    readonly counts = { enqueued: 0, duplicates: 0 };
    readonly ingestion = {
      enqueue: (turn: ChatTurn): void => {
        this.enqueued.push(turn);
        this.counts.duplicates += 2;
      },
      backfill: (): number => 0,
      endSessions: (): void => {},
      settled: async (): Promise<void> => {},
      stats: () => ({ staged: 0, counters: { ...this.counts } }) as unknown as IngestionStats,
    };
    readonly outbox = { flush: async (): Promise<void> => {} };
  }

  it('says nothing new was queued (not "queued") when the delivery ledger refused every message', async () => {
    // Seen before (its ledger exists), so every new turn goes through enqueue.
    await fs.writeFile(transcript, claudeTurns(1, 1));
    await stop(new RecordingTarget());
    await fs.appendFile(transcript, claudeTurns(2, 3));
    const target = new QueuedElsewhereTarget();
    const captured = await stop(target);
    expect(captured).toMatchObject({ turns: 2, queuedElsewhere: true });
    expect(target.enqueued).toHaveLength(2);
    // A run whose messages were accepted says queued.
    await fs.appendFile(transcript, claudeTurns(4, 4));
    const accepting = new RecordingTarget();
    expect(await stop(accepting)).toEqual({ turns: 1, olderTurnsLeftOut: 0 });
  });
});
