// VS Code chat sessions as VS Code 1.139 persists them (`workspaceStorage/<id>/chatSessions/<session>.jsonl`,
// see the repository's notes on the format): a kind-0 snapshot, each request pushed with kind 2
// and completed in place. Copilot agent mode's replies carry markdown plus tool invocations and
// inline references. Written for this corpus about an invented project: no private content.

interface VsCodeTurn {
  readonly prompt: string;
  /** Markdown chunks of the reply, with the tools the agent ran between them. */
  readonly reply: readonly string[];
  readonly tools?: readonly string[];
}

const markdown = (value: string): Record<string, unknown> => ({ value, supportThemeIcons: false, supportHtml: false });

export function vscodeChatSession(sessionId: string, turns: readonly VsCodeTurn[], created: number): string {
  const lines: object[] = [
    {
      kind: 0,
      v: {
        version: 3,
        sessionId,
        creationDate: created,
        initialLocation: 'panel',
        responderUsername: 'GitHub Copilot',
        requests: [],
        pendingRequests: [],
        inputState: { inputText: '', selections: [], mode: { id: 'agent' } },
        hasPendingEdits: false,
      },
    },
  ];
  turns.forEach((turn, index) => {
    const sent = created + index * 120_000;
    const response: object[] = [{ kind: 'mcpServersStarting', didStartServerIds: [] }];
    for (const [chunk, text] of turn.reply.entries()) {
      const tool = turn.tools?.[chunk];
      if (tool !== undefined) response.push({ kind: 'toolInvocationSerialized', toolId: tool, invocationMessage: { value: `Running ${tool}` }, pastTenseMessage: { value: `Ran ${tool}` }, isComplete: true, isConfirmed: { type: 1 } });
      response.push(markdown(text));
    }
    lines.push({
      kind: 2,
      k: ['requests'],
      v: [
        {
          requestId: `request_${sessionId.slice(0, 8)}_${index}`,
          timestamp: sent,
          responseId: `response_${index}`,
          message: { text: turn.prompt, parts: [{ kind: 'text', text: turn.prompt, range: { start: 0, endExclusive: turn.prompt.length } }] },
          variableData: { variables: [] },
          agent: { id: 'github.copilot.editsAgent', name: 'agent', extensionId: { value: 'GitHub.copilot-chat' }, isDefault: true },
          modelId: 'copilot/gpt-5',
          followups: [],
          contentReferences: [],
          codeCitations: [],
          modelState: { value: 0 },
          response: [],
        },
      ],
    });
    lines.push({ kind: 1, k: ['requests', index, 'response'], v: response });
    lines.push({ kind: 1, k: ['requests', index, 'modelState'], v: { value: 1, completedAt: sent + 30_000 } });
    lines.push({ kind: 1, k: ['requests', index, 'result'], v: { timings: { firstProgress: 800, totalElapsed: 30_000 }, metadata: {} } });
  });
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

const code = (lines: number): string =>
  ['```ts', ...Array.from({ length: lines }, (_, index) => `export const limit${index} = Number(process.env.LIMIT_${index} ?? ${index * 10});`), '```'].join('\n');

export const SETTINGS_SESSION = vscodeChatSession(
  'c0ffee00-1234-4abc-9def-000000000001',
  [
    { prompt: 'How are settings loaded in this project?', tools: ['copilot_readFile'], reply: ['Settings are read in `src/config/settings.ts`: environment variables first, then `config.json`, validated by one zod schema.', ' Unknown keys fail with the key name.'] },
    { prompt: 'Add a setting for the worker concurrency, default 4.', tools: ['copilot_readFile', 'copilot_replaceString'], reply: ['I added `concurrency` (1–64, default 4) to the schema:', `\n\n${code(12)}\n\n`, 'and the worker reads it at start.'] },
    { prompt: 'Run the tests.', tools: ['copilot_runInTerminal'], reply: ['All 96 tests pass.'] },
    { prompt: 'Document it in the README table.', tools: ['copilot_replaceString'], reply: ['Added a row: `concurrency` | `4` | jobs the worker runs at once.'] },
    { prompt: 'Should the default depend on the CPU count?', reply: ['It could (`os.availableParallelism()`), but jobs here wait on the network, not the CPU; a fixed default is easier to reason about and to reproduce in tests. I would keep 4 and let people raise it.'] },
    { prompt: 'Fine, keep 4. Write a changeset.', tools: ['copilot_createFile'], reply: ['Added `.changeset/worker-concurrency.md` (minor): the `concurrency` setting, default 4.'] },
  ],
  Date.UTC(2026, 10, 21, 10, 0, 0),
);

export const REVIEW_SESSION = vscodeChatSession(
  'c0ffee00-1234-4abc-9def-000000000002',
  [
    { prompt: 'Review src/queue/backoff.ts for edge cases.', tools: ['copilot_readFile'], reply: ['Three things: a negative `attempt` gives a delay below the base; `2 ** attempt` overflows to Infinity after 1024 attempts; and the jitter can return 0, which retries at once.', `\n\n${code(8)}\n\n`, 'Clamp the attempt, cap the exponent, and keep half of the delay fixed.'] },
    { prompt: 'Fix all three.', tools: ['copilot_replaceString', 'copilot_runInTerminal'], reply: ['Fixed, with a test for each case; the suite passes.'] },
    { prompt: 'Thanks. Anything else worth changing there?', reply: ['The function takes the options object on every call; if it is hot, pass the two numbers it needs. Not worth it unless a profile shows it.'] },
  ],
  Date.UTC(2026, 10, 22, 15, 0, 0),
);

export const VSCODE_CHAT_CORPUS: ReadonlyArray<{ readonly name: string; readonly text: string }> = [
  { name: 'vscode-chat/settings (6 turns)', text: SETTINGS_SESSION },
  { name: 'vscode-chat/review (3 turns)', text: REVIEW_SESSION },
];
