// Memory as an MCP server in a real client: Claude Code runs with `--mcp-config` naming
// `graphiti-harness mcp`; the scripted model calls memory_recall; Claude Code runs the tool through
// our server (which recalls from the emulator with the consent `hooks install` recorded) and the
// tool result holding the promoted decision reaches the model's next request.
import fs from 'node:fs';
import path from 'node:path';
import type { RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import type { Checks } from './checks.js';
import { messagesRequests, textOf, type ModelRequest, type RunningModelServer, type ScriptedToolUse } from './model-server.js';
import type { Sandbox } from './sandbox.js';
import type { ClaudeResult, Tools } from './tools.js';

/** How Claude Code names our server's recall tool (`mcp__<server>__<tool>`). */
export const MEMORY_RECALL_TOOL = 'mcp__graphiti-memory__memory_recall';
export const MCP_QUERY = 'how do we deploy';

interface ContentBlock {
  readonly type?: unknown;
  readonly name?: unknown;
  readonly id?: unknown;
  readonly tool_use_id?: unknown;
  readonly content?: unknown;
}

function blocksOf(body: Readonly<Record<string, unknown>>): ContentBlock[] {
  const messages = Array.isArray(body['messages']) ? (body['messages'] as Array<{ content?: unknown }>) : [];
  return messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as ContentBlock[]) : []));
}

const offersRecall = (body: Readonly<Record<string, unknown>>): boolean =>
  Array.isArray(body['tools']) && (body['tools'] as Array<{ name?: unknown }>).some((tool) => tool.name === MEMORY_RECALL_TOOL);

/**
 * The scripted model's move when our recall tool is offered and not yet called in this exchange:
 * call it. Otherwise `undefined` (the scenario's text answer applies).
 */
export function memoryRecallCall(body: Readonly<Record<string, unknown>>): ScriptedToolUse | undefined {
  if (!offersRecall(body)) return undefined;
  if (blocksOf(body).some((block) => block.type === 'tool_result')) return undefined;
  return { toolUse: { name: MEMORY_RECALL_TOOL, input: { query: MCP_QUERY, scopes: ['workspace'] } } };
}

/** The text of the tool results for our recall in the requests (the id of each of our calls, then its result). */
function recallResults(requests: readonly ModelRequest[]): string[] {
  const results: string[] = [];
  for (const request of messagesRequests(requests)) {
    const body = request.body as Record<string, unknown>;
    const blocks = blocksOf(body);
    const ours = new Set(blocks.filter((block) => block.type === 'tool_use' && block.name === MEMORY_RECALL_TOOL).map((block) => block.id));
    for (const block of blocks) if (block.type === 'tool_result' && ours.has(block.tool_use_id)) results.push(textOf(block.content));
  }
  return results;
}

export interface McpStepContext {
  readonly sandbox: Sandbox;
  readonly tools: Tools;
  readonly emulator: RunningEmulator;
  readonly model: RunningModelServer;
  readonly checks: Checks;
  /** The harness binary the config runs. */
  readonly harness: string;
  /** The promoted decision the recall must bring back. */
  readonly decision: string;
  readonly answerWithMemory: string;
}

const describeExit = (run: ClaudeResult): string =>
  run.status === 0 && run.result?.is_error !== true ? '' : `exit ${run.status ?? run.signal}${run.timedOut ? ' (timed out)' : ''}; stderr: ${run.stderr.trim().slice(0, 400) || '(empty)'}; stdout: ${run.stdout.trim().slice(0, 300)}`;

export async function stepMcpRecall(context: McpStepContext): Promise<void> {
  const { checks, tools, sandbox, emulator, model } = context;
  checks.begin('3b. `claude -p --mcp-config` with `graphiti-harness mcp`: the model calls memory_recall, the promoted decision comes back as its result');
  const config = path.join(sandbox.root, 'mcp-config.json');
  fs.writeFileSync(config, JSON.stringify({ mcpServers: { 'graphiti-memory': { type: 'stdio', command: process.execPath, args: [context.harness, 'mcp'] } } }));
  const first = model.requests.length;
  const searchesBefore = emulator.requests.filter((request) => request.route === 'search' || request.route === 'search_memory_facts').length;
  const run = await tools.claude('mcp-recall', 'What do you remember about deploying?', ['--mcp-config', config, '--strict-mcp-config', '--allowedTools', MEMORY_RECALL_TOOL], 90_000);
  checks.check('the CLI exits 0', run.status === 0 && run.result?.is_error === false, describeExit(run));
  const requests = messagesRequests(model.requests.slice(first));
  const offered = requests.filter((request) => offersRecall(request.body as Record<string, unknown>));
  checks.check(`Claude Code started our server and offered its tools to the model (${MEMORY_RECALL_TOOL})`, offered.length > 0, `${offered.length} of ${requests.length} requests list it`);
  const results = recallResults(requests);
  checks.check(
    "the memory_recall result in the model's next request holds the promoted decision",
    results.some((text) => text.includes(context.decision)),
    results.length === 0 ? 'no tool_result for memory_recall in any request' : `results: ${results.map((text) => text.slice(0, 300)).join(' | ')}`,
  );
  const searches = emulator.requests.filter((request) => request.route === 'search' || request.route === 'search_memory_facts').length - searchesBefore;
  checks.check('the recall searched Graphiti (the emulator) through our server', searches > 0, `${searches} searches`);
  checks.check('the CLI prints the answer the model gave from the recalled memory', run.result?.result === context.answerWithMemory, `result: ${JSON.stringify(run.result?.result)}`);
}
