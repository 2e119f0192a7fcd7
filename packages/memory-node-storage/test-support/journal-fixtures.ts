// Helpers for tests: write journals by hand (as a crashed process would have left them) and read
// a journal back as replayed state.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import type { OutboxEntry } from '@graphiti-memory/memory-core';
import { encodeJournalLine, scanJournal } from '../src/journal/journal-line.js';
import { replayEntries, type OutboxJournalEntry } from '../src/outbox/outbox-journal-entry.js';

/** A fresh folder under the system temp folder, removed when the calling test finishes. */
export async function temporaryDirectory(prefix = 'memory-node-storage-'): Promise<string> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  // Best effort: a process a test left running may still write there; never fail a test for it.
  onTestFinished(() => fs.rm(directory, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }).catch(() => undefined));
  return directory;
}

export function entry(index: number, groupId = 'group_a'): OutboxEntry {
  return { groupId, message: { content: `message ${index}`, role_type: 'user', role: null, name: `test.turn.${index}.user` } };
}

export function enqueuedLine(id: string, index: number, enqueuedAt = index): OutboxJournalEntry {
  const { groupId, message } = entry(index);
  return { t: 'enqueued', id, groupId, message, enqueuedAt };
}

/** Writes a journal; `tail` is appended raw (a torn line, garbage). */
export async function writeJournal(directory: string, fileName: string, entries: readonly OutboxJournalEntry[], tail = ''): Promise<string> {
  const filePath = path.join(directory, fileName);
  await fs.writeFile(filePath, entries.map((item) => encodeJournalLine(item)).join('') + tail);
  return filePath;
}

export async function replayFile(filePath: string): Promise<ReturnType<typeof replayEntries> & { tornLines: number; corruptLines: number }> {
  const scan = scanJournal(await fs.readFile(filePath));
  return { ...replayEntries(scan.values), tornLines: scan.tornLines, corruptLines: scan.corruptLines };
}

export async function journalFiles(directory: string): Promise<string[]> {
  return (await fs.readdir(directory)).filter((name) => name.startsWith('outbox-') && name.endsWith('.journal')).sort();
}
