// memory-core's transcript parsers, reached through its entry by name. The team brief places
// them in memory-core's `transcripts` barrel; until memory-core's entry re-exports that barrel,
// the watcher reports them missing instead of failing to build. Once it does, this module can
// become plain `import { … } from '@graphiti-memory/memory-core'` with memory-core's own types.
import * as core from '@graphiti-memory/memory-core';
import type { ChatTurn } from '@graphiti-memory/memory-core';

export type TranscriptFormat = 'claude-code' | 'vscode-chat' | 'jsonl';
/** Parser options (filter presets, session id …), passed through to memory-core unchanged. */
export type TranscriptOptions = Readonly<Record<string, unknown>>;

export interface TranscriptReader {
  push(chunk: string): ChatTurn[];
  flush(): ChatTurn[];
  end(): ChatTurn[];
}

export interface TranscriptParsers {
  detectTranscriptFormat(text: string, fileName?: string): TranscriptFormat | undefined;
  parseTranscript(text: string, format: TranscriptFormat | 'auto', options?: TranscriptOptions): { readonly turns: ChatTurn[] } | undefined;
  createTranscriptReader(format: TranscriptFormat, options?: TranscriptOptions): TranscriptReader;
}

/** The parsers, or `undefined` while memory-core's entry does not export them. */
export function transcriptParsers(): TranscriptParsers | undefined {
  const exports = core as unknown as Record<string, unknown>;
  const names = ['detectTranscriptFormat', 'parseTranscript', 'createTranscriptReader'] as const;
  if (!names.every((name) => typeof exports[name] === 'function')) return undefined;
  return exports as unknown as TranscriptParsers;
}

export function requireTranscriptParsers(): TranscriptParsers {
  const parsers = transcriptParsers();
  if (parsers === undefined) {
    throw new Error('TranscriptWatcher needs memory-core\'s transcript parsers (parseTranscript, createTranscriptReader, detectTranscriptFormat), and @graphiti-memory/memory-core does not export them. Use a memory-core version whose entry exports its transcripts barrel.');
  }
  return parsers;
}
