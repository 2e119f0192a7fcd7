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

// Agent mode as Copilot answers in VS Code: replies that show the code they wrote (fenced, often
// naming the file in their first line), the commands to run and the test output, as real chats do.
const fence = (language: string, ...lines: string[]): string => ['```' + language, ...lines, '```'].join('\n');

const RATE_LIMITER = fence(
  'ts',
  '// filepath: src/http/rate-limit.ts',
  "import type { NextFunction, Request, Response } from 'express';",
  "import { TokenBucket } from './token-bucket.js';",
  '',
  'export interface RateLimitOptions {',
  '  /** Requests a client may make in a burst. */',
  '  readonly capacity: number;',
  '  /** Tokens added per second. */',
  '  readonly refillPerSecond: number;',
  '  /** How a client is told apart; the API key, else the address. */',
  '  readonly keyOf?: (request: Request) => string;',
  '}',
  '',
  'export function rateLimit(options: RateLimitOptions) {',
  '  const buckets = new Map<string, TokenBucket>();',
  "  const keyOf = options.keyOf ?? ((request: Request) => request.header('x-api-key') ?? request.ip ?? 'unknown');",
  '  return (request: Request, response: Response, next: NextFunction): void => {',
  '    const key = keyOf(request);',
  '    let bucket = buckets.get(key);',
  '    if (bucket === undefined) {',
  '      bucket = new TokenBucket(options.capacity, options.refillPerSecond);',
  '      buckets.set(key, bucket);',
  '    }',
  '    const wait = bucket.take(Date.now());',
  '    if (wait === 0) return next();',
  "    response.setHeader('Retry-After', Math.ceil(wait / 1000).toString());",
  "    response.status(429).json({ error: 'rate_limited', retryAfterMs: wait });",
  '  };',
  '}',
);

const TOKEN_BUCKET = fence(
  'ts',
  '// filepath: src/http/token-bucket.ts',
  'export class TokenBucket {',
  '  private tokens: number;',
  '  private updatedAt = 0;',
  '',
  '  constructor(private readonly capacity: number, private readonly refillPerSecond: number) {',
  '    this.tokens = capacity;',
  '  }',
  '',
  '  /** Takes a token; returns 0 when one was free, else the milliseconds until one is. */',
  '  take(now: number): number {',
  '    const elapsed = this.updatedAt === 0 ? 0 : (now - this.updatedAt) / 1000;',
  '    this.tokens = Math.min(this.capacity, this.tokens + elapsed * this.refillPerSecond);',
  '    this.updatedAt = now;',
  '    if (this.tokens >= 1) {',
  '      this.tokens -= 1;',
  '      return 0;',
  '    }',
  '    return Math.ceil(((1 - this.tokens) / this.refillPerSecond) * 1000);',
  '  }',
  '}',
);

const LIMITER_TEST = fence(
  'ts',
  '// filepath: src/http/rate-limit.test.ts',
  "import request from 'supertest';",
  "import { describe, expect, it } from 'vitest';",
  "import { createApp } from '../app.js';",
  '',
  "describe('rate limit', () => {",
  "  it('answers 429 with Retry-After once a client spends its burst', async () => {",
  '    const app = createApp({ rateLimit: { capacity: 2, refillPerSecond: 1 } });',
  "    await request(app).get('/accounts').set('x-api-key', 'k1').expect(200);",
  "    await request(app).get('/accounts').set('x-api-key', 'k1').expect(200);",
  "    const limited = await request(app).get('/accounts').set('x-api-key', 'k1').expect(429);",
  "    expect(limited.headers['retry-after']).toBe('1');",
  '  });',
  '',
  "  it('keeps clients apart', async () => {",
  '    const app = createApp({ rateLimit: { capacity: 1, refillPerSecond: 1 } });',
  "    await request(app).get('/accounts').set('x-api-key', 'k1').expect(200);",
  "    await request(app).get('/accounts').set('x-api-key', 'k2').expect(200);",
  '  });',
  '});',
);

const TEST_OUTPUT = fence(
  'text',
  ' ✓ src/http/token-bucket.test.ts (4 tests) 6ms',
  ' ✓ src/http/rate-limit.test.ts (2 tests) 48ms',
  ' ✓ src/accounts/accounts.test.ts (11 tests) 131ms',
  ' ✓ src/ledger/postings.test.ts (23 tests) 212ms',
  '',
  ' Test Files  4 passed (4)',
  '      Tests  40 passed (40)',
);

const CONFIG_CHANGE = fence(
  'ts',
  '// filepath: src/config/schema.ts',
  'rateLimit: z',
  '  .object({',
  '    capacity: z.number().int().min(1).max(10_000).default(60),',
  '    refillPerSecond: z.number().positive().max(1_000).default(1),',
  '  })',
  '  .default({}),',
);

export const AGENT_SESSION = vscodeChatSession(
  'c0ffee00-1234-4abc-9def-000000000003',
  [
    {
      prompt: 'The public API gets hammered by one client at a time. Add rate limiting per API key, in front of every route.',
      tools: ['copilot_findFiles', 'copilot_readFile', 'copilot_createFile'],
      reply: [
        'I looked at `src/app.ts`: every route is mounted on one router, so a middleware before it covers them all.',
        "\n\nI added a token-bucket limiter: each client (its `x-api-key`, else its address) gets a burst of `capacity` requests and `refillPerSecond` more each second; past that it gets **429** with `Retry-After`.\n\n",
        `${RATE_LIMITER}\n\n`,
        `${TOKEN_BUCKET}\n\n`,
        'It keeps the buckets in memory, so the limit is per process; with several instances behind the load balancer a client gets that many times the limit.',
      ],
    },
    {
      prompt: 'Per process is fine for now, we run two instances. Wire it into the app with 60 requests and 1 per second.',
      tools: ['copilot_readFile', 'copilot_replaceString'],
      reply: [
        'Added the settings to the config schema, with those defaults, and mounted the limiter before the router in `createApp`:',
        `\n\n${CONFIG_CHANGE}\n\n`,
        "The health check (`/healthz`) stays outside the limiter so the load balancer's probes never get 429.",
      ],
    },
    {
      prompt: 'Write tests for it.',
      tools: ['copilot_createFile', 'copilot_runInTerminal'],
      reply: ['Added two tests with supertest: the burst then 429 with `Retry-After`, and two keys kept apart.', `\n\n${LIMITER_TEST}\n\n`, 'Run them with:', `\n\n${fence('bash', 'pnpm vitest run src/http')}\n\n`, 'Both pass.'],
    },
    {
      prompt: 'Run the whole suite.',
      tools: ['copilot_runInTerminal'],
      reply: [`All green:\n\n${TEST_OUTPUT}`],
    },
    {
      prompt: 'Does the map of buckets grow forever?',
      reply: [
        'Yes: one bucket per key ever seen, never removed. With API keys that is bounded by the number of customers, but the fallback on the address is not, so a scan from many addresses would grow it.',
        '\n\nTwo options:\n\n- drop a bucket once it is full again (it has not been used for `capacity / refillPerSecond` seconds), on a timer every minute;\n- use an LRU with a size cap (`lru-cache` is already a dependency).\n\n',
        'The LRU is less code and bounds memory even under a burst of new addresses; I would take it with a cap of 10 000.',
      ],
    },
    {
      prompt: 'Go with the LRU, cap 10000, and note the decision in docs/decisions.',
      tools: ['copilot_replaceString', 'copilot_createFile', 'copilot_runInTerminal'],
      reply: [
        'Replaced the map with `new LRUCache<string, TokenBucket>({ max: 10_000 })` and added `docs/decisions/0007-rate-limit-per-process.md`: per-process token buckets keyed by API key (address as fallback), 60 burst and 1 per second by default, at most 10 000 clients remembered, `/healthz` exempt. The suite passes.',
      ],
    },
  ],
  Date.UTC(2026, 10, 23, 9, 30, 0),
);

export const VSCODE_CHAT_CORPUS: ReadonlyArray<{ readonly name: string; readonly text: string }> = [
  { name: 'vscode-chat/settings (6 turns)', text: SETTINGS_SESSION },
  { name: 'vscode-chat/review (3 turns)', text: REVIEW_SESSION },
  { name: 'vscode-chat/rate-limit (6 turns)', text: AGENT_SESSION },
];
