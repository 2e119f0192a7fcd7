// For the reader tests: a transcript fed as a watcher sees it, a chunk at a time.
import type { ChatTurn } from '../src/ports.js';
import type { TranscriptReader } from '../src/transcripts/transcript-types.js';

/** Pushes `text` to `reader` in chunks of `size` characters, then ends it; returns every turn emitted. */
export function readInChunks(reader: TranscriptReader, text: string, size: number): ChatTurn[] {
  const turns: ChatTurn[] = [];
  for (let offset = 0; offset < text.length; offset += size) turns.push(...reader.push(text.slice(offset, offset + size)));
  turns.push(...reader.end());
  return turns;
}
