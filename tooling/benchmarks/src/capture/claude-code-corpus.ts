// Claude Code sessions in the format Claude Code 2.x writes to ~/.claude/projects/<project>/<session>.jsonl:
// prompts, streamed assistant lines (thinking, text, tool_use), tool results as user lines, and
// the bookkeeping lines (summary, file-history-snapshot). Written for this corpus about an
// invented project: no private content. The tool output is what makes a coding session large,
// as in real sessions (file reads, test runs, searches).

interface ClaudeTurn {
  readonly prompt: string;
  readonly thinking?: string;
  /** Tool rounds before the reply: a call and its output. */
  readonly tools?: ReadonlyArray<{ readonly name: string; readonly input: Record<string, unknown>; readonly output: string }>;
  readonly reply: string;
}

const source = (file: string, lines: number): string =>
  Array.from({ length: lines }, (_, index) => {
    const line = index + 1;
    if (line % 12 === 1) return `${line}\t// ${file}: section ${Math.ceil(line / 12)}`;
    if (line % 12 === 2) return `${line}\texport function step${line}(input: Input): Output {`;
    if (line % 12 === 11) return `${line}\t}`;
    return `${line}\t  const value${line} = input.items.filter((item) => item.weight > ${line}).map((item) => item.id);`;
  }).join('\n');

const testRun = (failing: number): string =>
  [
    '> vitest run',
    '',
    ...Array.from({ length: 14 }, (_, index) => ` ✓ src/queue/queue-${index}.test.ts (${index + 3} tests) ${20 + index * 7}ms`),
    ...(failing > 0 ? [' × src/queue/retry.test.ts > retries with backoff', '   AssertionError: expected 3 to be 2', '    at src/queue/retry.test.ts:41:23'] : []),
    '',
    ` Test Files  ${failing > 0 ? '1 failed | ' : ''}14 passed (${failing > 0 ? 15 : 14})`,
    `      Tests  ${failing > 0 ? '1 failed | ' : ''}96 passed`,
  ].join('\n');

const grepHits = (pattern: string): string => Array.from({ length: 9 }, (_, index) => `src/queue/part-${index}.ts:${10 + index * 4}:  ${pattern}(options.retries ?? 3)`).join('\n');

/** The JSONL text of a session. */
export function claudeCodeSession(sessionId: string, turns: readonly ClaudeTurn[], startedAt: number): string {
  const cwd = '/home/dev/projects/queue-service';
  const base = { isSidechain: false, userType: 'external', cwd, sessionId, version: '2.0.61', gitBranch: 'main' };
  const lines: object[] = [{ type: 'summary', summary: turns[0]?.prompt.slice(0, 40) ?? '', leafUuid: `${sessionId}-leaf` }];
  let second = 0;
  let parent: string | null = null;
  const at = (): string => new Date(startedAt + (second += 3) * 1000).toISOString();
  const push = (line: Record<string, unknown>, uuid: string): void => {
    lines.push({ ...base, parentUuid: parent, uuid, timestamp: at(), ...line });
    parent = uuid;
  };
  turns.forEach((turn, index) => {
    const id = `${sessionId.slice(0, 8)}-${index}`;
    lines.push({ type: 'file-history-snapshot', messageId: `u-${id}`, snapshot: { trackedFileBackups: {} }, isSnapshotUpdate: false });
    push({ type: 'user', message: { role: 'user', content: turn.prompt } }, `u-${id}`);
    const assistant = (content: object[], uuid: string, stop: string | null): void =>
      push({ type: 'assistant', requestId: `req_${id}`, message: { id: `msg_${id}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: stop } }, uuid);
    if (turn.thinking !== undefined) assistant([{ type: 'thinking', thinking: turn.thinking, signature: 'sig' }], `th-${id}`, null);
    (turn.tools ?? []).forEach((tool, toolIndex) => {
      const toolId = `toolu_${id}_${toolIndex}`;
      assistant([{ type: 'tool_use', id: toolId, name: tool.name, input: tool.input }], `tu-${id}-${toolIndex}`, 'tool_use');
      push({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: tool.output }] }, toolUseResult: { stdout: tool.output } }, `tr-${id}-${toolIndex}`);
    });
    assistant([{ type: 'text', text: turn.reply }], `a-${id}`, 'end_turn');
  });
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

const read = (file: string, lines: number) => ({ name: 'Read', input: { file_path: `/home/dev/projects/queue-service/${file}` }, output: source(file, lines) });
const bash = (command: string, output: string) => ({ name: 'Bash', input: { command, description: 'Run it' }, output });
const grep = (pattern: string) => ({ name: 'Grep', input: { pattern, path: 'src' }, output: grepHits(pattern) });
const edit = (file: string) => ({ name: 'Edit', input: { file_path: `/home/dev/projects/queue-service/${file}`, old_string: 'retries ?? 3', new_string: 'retries ?? 5' }, output: `The file ${file} has been updated.` });

/** A short bug hunt: 4 turns. */
export const RETRY_BUG_SESSION = claudeCodeSession(
  '0c6a1f0e-51f4-4d7e-9a1b-3f2e4d5c6b7a',
  [
    {
      prompt: 'The retry test in src/queue fails since yesterday. Can you find out why?',
      thinking: 'Start with the failing test and the retry module; then the last change to the backoff.',
      tools: [bash('pnpm vitest run src/queue', testRun(1)), read('src/queue/retry.ts', 90), read('src/queue/retry.test.ts', 60)],
      reply:
        'The test expects two attempts, but `retry()` now makes three: the default for `retries` moved from 2 to 3 in the last change to `src/queue/retry.ts`, and the test still counts with the old default. Either the test pins `retries: 2`, or it expects three attempts.',
    },
    {
      prompt: 'Pin it in the test, we want three by default.',
      tools: [edit('src/queue/retry.test.ts'), bash('pnpm vitest run src/queue/retry.test.ts', testRun(0))],
      reply: 'Done: the test passes `retries: 2` explicitly and asserts two attempts; the default of three stays. All 96 tests of src/queue pass.',
    },
    {
      prompt: 'Where else do we rely on the old default?',
      tools: [grep('retry'), read('src/queue/part-3.ts', 40)],
      reply:
        'Nine call sites pass `options.retries ?? 3`, so they follow the new default. Only `src/queue/part-3.ts` documents "two attempts" in a comment; I would update that comment so nobody reads the old behaviour as intended.',
    },
    {
      prompt: 'Update the comment and write a changeset.',
      tools: [edit('src/queue/part-3.ts'), bash('git status --short', ' M src/queue/part-3.ts\n M src/queue/retry.test.ts\n?? .changeset/retry-default.md')],
      reply: 'Updated the comment in `src/queue/part-3.ts` and added `.changeset/retry-default.md` (patch): "retry makes three attempts by default; the test pins two".',
    },
  ],
  Date.UTC(2026, 10, 18, 9, 0, 0),
);

/** A feature session: 10 turns, with design talk, reads, edits and test runs. */
export const DEAD_LETTER_SESSION = claudeCodeSession(
  '5b9d2c4e-7a1f-4e3b-8c6d-0f1e2d3c4b5a',
  [
    { prompt: 'We need a dead-letter queue for jobs that fail five times. What would you change?', thinking: 'Look at the worker loop and the job store before proposing anything.', tools: [read('src/queue/worker.ts', 120), read('src/queue/job-store.ts', 80)], reply: 'The worker retries forever today. I would add a `deadLetters` table to the job store, move a job there after its fifth failure with the last error, and give the CLI `dead list` and `dead retry <id>`. The worker loop only needs one new branch after a failure.' },
    { prompt: 'Sounds right. Keep the last error but never the job payload in logs.', reply: 'Agreed: the dead-letter record keeps the payload in the store (it is needed to retry) and the error class and message; the log line says only the job id, attempts and error class.' },
    { prompt: 'Go ahead with the store part.', tools: [edit('src/queue/job-store.ts'), read('src/queue/schema.sql', 50), edit('src/queue/schema.sql'), bash('pnpm vitest run src/queue/job-store.test.ts', testRun(0))], reply: 'The job store has `moveToDeadLetters(id, error)`, `deadLetters()` and `retryDeadLetter(id)`; the schema adds the `dead_letters` table with a migration. Existing tests pass.' },
    { prompt: 'Now the worker.', tools: [edit('src/queue/worker.ts'), bash('pnpm vitest run src/queue', testRun(1))], reply: 'The worker moves a job after its fifth failure. One test fails: it expected unlimited retries. That test describes the old behaviour, so I would change it to expect the dead letter.' },
    { prompt: 'Yes, change it.', tools: [edit('src/queue/worker.test.ts'), bash('pnpm vitest run src/queue', testRun(0))], reply: 'Changed: the test now fails a job five times and finds it in `deadLetters()`. All tests pass.' },
    { prompt: 'Add the CLI commands.', tools: [read('src/cli/commands.ts', 70), edit('src/cli/commands.ts'), bash('node dist/cli.js dead list', 'No dead letters.')], reply: 'Added `dead list` (id, attempts, error class, age) and `dead retry <id>`; both print a clear message when the id is unknown.' },
    { prompt: 'Is five the right limit? Some jobs call a slow partner API.', reply: 'Five with the current backoff (1 s doubling) gives about 31 s of retries, short for a partner outage. I would make the limit a setting (`maxAttempts`, default 5) and cap the backoff at 5 minutes, so a slow partner gets about 20 minutes before a job is parked.' },
    { prompt: 'Make it a setting, default 5, and cap the backoff at five minutes.', tools: [edit('src/config/settings.ts'), edit('src/queue/backoff.ts'), bash('pnpm vitest run', testRun(0))], reply: '`maxAttempts` (default 5, 1–100) is in the settings schema and read by the worker; the backoff is capped at 300 s. All tests pass.' },
    { prompt: 'Write the docs section.', tools: [read('README.md', 60), edit('README.md')], reply: 'README has a "Dead letters" section: when a job is parked, how to list and retry, and the `maxAttempts` setting.' },
    { prompt: 'Changeset and we are done.', tools: [bash('git status --short', ' M README.md\n M src/queue/worker.ts\n M src/queue/job-store.ts\n?? .changeset/dead-letters.md')], reply: 'Added `.changeset/dead-letters.md` (minor): dead-letter queue after `maxAttempts` failures, CLI `dead list` / `dead retry`, backoff capped at five minutes.' },
  ],
  Date.UTC(2026, 10, 19, 14, 0, 0),
);

/** Mostly conversation: 3 turns, little tool output. */
export const NAMING_SESSION = claudeCodeSession(
  '9e8d7c6b-5a49-4382-b1c0-d9e8f7a6b5c4',
  [
    { prompt: 'Should the package be called queue-core or job-queue?', reply: 'job-queue says what it holds; queue-core says where it sits. Your other packages are named for what they do (`config-loader`, `http-client`), so `job-queue` fits the repository better.' },
    { prompt: 'And the main class: Queue or JobQueue?', reply: '`JobQueue`: `Queue` collides with the DOM-like `Queue` types some runtimes declare and says less in stack traces.' },
    { prompt: 'OK, rename it everywhere.', tools: [grep('new Queue'), edit('src/queue/index.ts'), bash('pnpm tsc --noEmit', '')], reply: 'Renamed `Queue` to `JobQueue` in nine files; the type check is clean.' },
  ],
  Date.UTC(2026, 10, 20, 11, 0, 0),
);

export const CLAUDE_CODE_CORPUS: ReadonlyArray<{ readonly name: string; readonly text: string }> = [
  { name: 'claude-code/retry-bug (4 turns)', text: RETRY_BUG_SESSION },
  { name: 'claude-code/dead-letters (10 turns)', text: DEAD_LETTER_SESSION },
  { name: 'claude-code/naming (3 turns)', text: NAMING_SESSION },
];
