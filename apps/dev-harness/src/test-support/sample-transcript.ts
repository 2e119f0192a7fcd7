// One jsonl transcript (two user turns, two answers) shared by the in-process command tests and
// the built binary's end-to-end test, so both ingest the same messages and expect the same counts.
export const SAMPLE_TRANSCRIPT = [
  { role: 'user', content: 'The team uses pnpm for installs.', timestamp: '2025-03-01T10:00:00Z' },
  { role: 'assistant', content: 'Noted. The build runs through turbo.', timestamp: '2025-03-01T10:00:05Z' },
  { role: 'user', content: 'Alice prefers short answers.', timestamp: '2025-03-01T10:01:00Z' },
  { role: 'assistant', content: 'Understood.', timestamp: '2025-03-01T10:01:05Z' },
]
  .map((line) => JSON.stringify(line))
  .join('\n');
