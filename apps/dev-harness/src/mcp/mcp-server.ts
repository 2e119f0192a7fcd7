// `graphiti-harness mcp`: memory as an MCP server on stdio (the official SDK), for every MCP client
// (Claude Code, Codex, Gemini CLI, Cursor, VS Code, …). Four tools — memory_recall, memory_remember,
// memory_forget, memory_pending — each gated afresh (mcp-access.ts) and carried out by the services
// the commands use (memory-tools.ts). stdout is the protocol: nothing else is ever written there
// (the tools' terminal discards it; console.log goes to stderr); logs go to stderr, without content.
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RootsListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PROMOTION_KINDS, type PromotionKind } from '@graphiti-memory/memory-core/episode-format';
import { z } from 'zod';
import type { Terminal, TerminalStream } from '../terminal/terminal.js';
import type { McpAccess, McpServerFlags } from './mcp-access.js';
import type { ToolAnswer } from './memory-tools.js';

/**
 * Memory's modules (memory-core, the stores, the client), loaded after the handshake: a client
 * waits only seconds for a server to start (Claude Code: 5 s in print mode), so `initialize` and
 * `tools/list` must not wait for them.
 */
const loadTools = async () => {
  const [access, tools] = await Promise.all([import('./mcp-access.js'), import('./memory-tools.js')]);
  return { ...access, ...tools };
};
let loaded: ReturnType<typeof loadTools> | undefined;
const memoryModules = (): ReturnType<typeof loadTools> => (loaded ??= loadTools());

/** The name clients list our server under (and `mcp install` writes). */
export const MCP_SERVER_NAME = 'graphiti-memory';

const ROOTS_TIMEOUT_MS = 2_000;

export interface MemoryMcpServerOptions {
  /** The process's terminal: its stdout is never written (the transport owns the real one). */
  readonly terminal: Terminal;
  readonly flags: McpServerFlags;
  readonly version: string;
  /** Overrides the default state folder (tests). */
  readonly defaultStateDir?: string;
}

/** The server with its four tools; connect it to a transport. */
export function createMemoryMcpServer(options: MemoryMcpServerOptions): McpServer {
  const terminal = toolTerminal(options.terminal);
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: 'Graphiti Memory', version: options.version },
    {
      instructions:
        "The user's long-term memory of earlier coding sessions (Graphiti Memory): decisions, preferences, procedures, lessons. Call memory_recall before answering questions about earlier work or conventions; recalled facts may be stale and the user's words and the current code win. memory_remember stores a memory the user asked to keep (a directive line such as `decision: …` waits for the user's review).",
    },
  );
  const workspace = workspaceFinder(server, options);
  const access = async (): Promise<McpAccess> => (await memoryModules()).resolveMcpAccess(terminal, options.flags, await workspace(), options.defaultStateDir);
  const debug = options.terminal.env['GRAPHITI_HARNESS_DEBUG'] === '1';
  // One call at a time: each opens the state folder's stores (the outbox and its lock) for itself.
  let queue: Promise<unknown> = Promise.resolve();
  const run = (tool: string, body: (opened: McpAccess) => Promise<ToolAnswer>) => (): Promise<CallToolResult> => {
    const next = queue.then(() => call(tool, body));
    queue = next.catch(() => undefined);
    return next;
  };
  const call = async (tool: string, body: (opened: McpAccess) => Promise<ToolAnswer>): Promise<CallToolResult> => {
    const started = performance.now();
    let opened: McpAccess | undefined;
    let answer: ToolAnswer;
    try {
      opened = await access();
      answer = await body(opened);
    } catch (error) {
      // Fail open: a failure is an answer the model can act on, never a crash of the server.
      answer = { text: `Memory could not be reached (${describe(error)}). Answer without it; \`graphiti-harness doctor\` shows what is wrong.`, data: { ok: false, reason: 'failed' }, isError: true };
    } finally {
      if (opened?.ok === true) await opened.close();
    }
    // Content-free: the tool, its outcome and how long it took.
    if (debug) options.terminal.stderr.write(`graphiti-harness mcp: ${tool} ${answer.data['ok'] === true ? 'ok' : String(answer.data['reason'] ?? 'failed')} ${Math.round(performance.now() - started)} ms\n`);
    // Some clients give the model the structured form instead of the text (Claude Code does): it carries the same words first.
    return { content: [{ type: 'text', text: answer.text }], structuredContent: { message: answer.text, ...answer.data }, ...(answer.isError === true ? { isError: true } : {}) };
  };

  const scope = z.enum(['workspace', 'user', 'team']);
  server.registerTool(
    'memory_recall',
    {
      title: 'Recall from memory',
      description:
        "Search the user's long-term memory for facts relevant to a question. Facts come with validity dates, a citation of their source (tool, date) when known, and a mark when they name files that are gone. Scopes: workspace (this repository, the default with the user's settings), user (every repository), team (shared, when enabled).",
      inputSchema: {
        query: z.string().min(1).max(4_000).describe('what to look for, in plain words'),
        scopes: z.array(scope).max(3).optional().describe('which memory to search; default: the configured recall scopes'),
        maxFacts: z.number().int().min(1).max(50).optional().describe('at most this many facts (default 10)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input) => run('memory_recall', async (opened) => (await memoryModules()).recallTool(opened, input))(),
  );
  server.registerTool(
    'memory_remember',
    {
      title: 'Remember',
      description:
        'Store a curated memory the user asked to keep: a decision, lesson_learned, preference, procedure, task_update or terminology, for the workspace (this repository), the user (every repository) or the team. Directive lines in the text (`decision: …`, `preference (user): …`) wait for the user\'s review instead; text holding a secret is refused.',
      inputSchema: {
        text: z.string().min(1).max(8_000).describe('the memory, one self-contained statement'),
        kind: z.enum(PROMOTION_KINDS as unknown as [PromotionKind, ...PromotionKind[]]).describe('what kind of memory it is'),
        scope: scope.default('workspace').describe('where it belongs'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (input) => run('memory_remember', async (opened) => (await memoryModules()).rememberTool(opened, input))(),
  );
  server.registerTool(
    'memory_forget',
    {
      title: 'Forget',
      description:
        "Delete memory for good: one source (the episode uuid memory_recall cites), one session (a cited session id), or one scope (workspace with its sessions; user; team: only what this user wrote there). Only the user's own memory stored from this machine; ask the user first.",
      inputSchema: {
        episode: z.string().max(100).optional().describe('a source uuid from memory_recall'),
        session: z.string().max(200).optional().describe('a session id from a citation'),
        scope: scope.optional().describe('a whole scope'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (input) => run('memory_forget', async (opened) => (await memoryModules()).forgetTool(opened, input))(),
  );
  server.registerTool(
    'memory_pending',
    {
      title: 'Memories waiting for review',
      description: 'List the memories waiting for the user\'s review, or approve (optionally with edited text) or reject one by its id. Approve only what the user asked to approve.',
      inputSchema: {
        action: z.enum(['list', 'approve', 'reject']),
        id: z.string().max(100).optional().describe('the id the list shows (approve, reject)'),
        text: z.string().min(1).max(8_000).optional().describe('approve: the memory as the user edited it'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (input) => run('memory_pending', async (opened) => (await memoryModules()).pendingTool(opened, input))(),
  );
  return server;
}

/** Serves until the client closes stdin; resolves to the exit code. */
export async function runMcpServer(options: MemoryMcpServerOptions): Promise<number> {
  // Whatever a library might print must not corrupt the protocol.
  console.log = console.error;
  console.info = console.error;
  const server = createMemoryMcpServer(options);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  process.stdin.on('end', () => void server.close());
  await server.connect(transport);
  // Loaded while the client reads the tool list, so the first call does not wait for it.
  void memoryModules().catch(() => undefined);
  await closed;
  return 0;
}

/**
 * The workspace of a call: `--workspace`, else the client's first `file://` root (MCP roots; a
 * client that declares them says which folder the session is in), else the folder the client
 * started the server in. Asked once and kept until the client says its roots changed.
 */
function workspaceFinder(server: McpServer, options: MemoryMcpServerOptions): () => Promise<string | undefined> {
  if (options.flags.workspace !== undefined) return () => Promise.resolve(options.flags.workspace);
  let known: Promise<string | undefined> | undefined;
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    known = undefined;
  });
  return () =>
    (known ??= (async () => {
      if (server.server.getClientCapabilities()?.roots === undefined) return undefined;
      try {
        const { roots } = await server.server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
        const root = roots.find((candidate) => candidate.uri.startsWith('file://'));
        return root === undefined ? undefined : fileURLToPath(root.uri);
      } catch {
        return undefined;
      }
    })());
}

/** The terminal the tools' commands run with: the process's, with stdout discarded. */
function toolTerminal(terminal: Terminal): Terminal {
  const discard: TerminalStream = { write: () => true, isTTY: false };
  return { ...terminal, stdout: discard, stdin: terminal.stdin };
}

function describe(error: unknown): string {
  const name = error instanceof Error ? error.constructor.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  // Messages name URLs, files and error classes; cut to one short line all the same.
  return `${name}: ${message.replace(/\s+/g, ' ').slice(0, 300)}`;
}
