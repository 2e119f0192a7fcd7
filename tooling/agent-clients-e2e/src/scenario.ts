// Issue 30's scenario for one real client (Codex, Gemini CLI or Copilot CLI) on one Graphiti face:
// `hooks install --target <client>` and two promoted memories → a one-shot session whose model
// request carries the brief (the decision, from the session-start hook) and the recall (the lesson,
// from the prompt hook) exactly once each → the turn stored exactly once with no further command →
// `forget --episode` of the decision → a new session's model request carries none of it →
// after `hooks uninstall`, a new session runs none of ours. Assertions are recorded, never weakened.
import fs from 'node:fs';
import path from 'node:path';
import type { RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import {
  countByGroupAndName,
  deliveriesOf,
  describeStoredTurns,
  isCapturedEpisodeName,
  sleep,
  storedTurnCounts,
  textOf,
  waitFor,
  waitForStoredTurns,
  type Checks,
  type CommandResult,
  type HarnessResult,
  type Sandbox,
  type Tools,
} from '@graphiti-memory/claude-code-e2e/support';
import type { AgentClient, ClientRunContext } from './clients/index.js';
import type { ScriptedModelServer } from './scripted-model-server.js';

export const DECISION = 'we deploy with blue-green releases';
/** What betrays the decision (the brief's memory) wherever it appears. */
export const DECISION_MARK = 'blue-green';
/** Not a brief kind, and sharing no word with the brief's query: only the prompt's recall finds it. */
export const LESSON = 'Roll back by restoring the previous release tag.';
export const LESSON_MARK = 'previous release tag';
export const PROMPT = 'How do we deploy, and how do we roll back a release?';
export const ANSWER_WITH_MEMORY = 'Your memory says: we deploy with blue-green releases.';
export const ANSWER_WITHOUT_MEMORY = 'I have no record of how this project deploys.';
/** Our block's opening tag; Gemini CLI 0.61.0 escapes `<` and `>` of hook context (`&lt;graphiti_memory&gt;`). */
const MEMORY_BLOCK = /(?:<|&lt;)graphiti_memory(?:>|&gt;)/;
/** The longest wait for the turn to be stored: a client without a session end leaves it to the digest's idle close (capture.idleMinutes: 1) and the drainer. */
const STORED_WITHIN_MS = 150_000;

/** The scripted model: it answers from memory only when the decision is in its request. */
export function scriptedAnswer(body: Readonly<Record<string, unknown>>): string {
  return textOf(body).includes(DECISION_MARK) ? ANSWER_WITH_MEMORY : ANSWER_WITHOUT_MEMORY;
}

export interface ClientScenarioContext extends ClientRunContext {
  readonly client: AgentClient;
  /** The installed CLI's entry script. */
  readonly entry: string;
  readonly tools: Tools;
  readonly emulator: RunningEmulator;
  readonly model: ScriptedModelServer;
  readonly checks: Checks;
  /** The endpoint the hooks are installed with (the MCP face's is `<url>/mcp/`). */
  readonly endpoint: string;
  /** Extra environment for the client (the proxy fallback when there is no network namespace). */
  readonly clientEnvironment: Readonly<Record<string, string>>;
}

const occurrences = (text: string, mark: string): number => text.split(mark).length - 1;

const describeCommand = (run: CommandResult): string =>
  run.status === 0 ? '' : `exit ${run.status ?? run.signal}${run.timedOut ? ' (timed out)' : ''}; stderr: ${run.stderr.trim().slice(-600) || '(empty)'}; stdout: ${run.stdout.trim().slice(0, 300)}`;

/** The product's record of hook runs (documented in the harness README), one parsed line each. */
function hookRuns(sandbox: Sandbox): Array<Record<string, unknown>> {
  const file = path.join(sandbox.stateDirectory, 'hooks', 'runs.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        const value = JSON.parse(line) as unknown;
        return value !== null && typeof value === 'object' ? [value as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
}

const describeRuns = (runs: ReadonlyArray<Record<string, unknown>>): string => runs.map((run) => `${String(run.event)}:${String(run.outcome)}`).join(', ') || 'none';

/** Our entries in the client's hook files: any mention of graphiti (the runner's path and marker carry it). */
function ourHookFiles(context: ClientScenarioContext): string[] {
  return context.client.hookFiles(context.sandbox.home).filter((file) => fs.readFileSync(file, 'utf8').toLowerCase().includes('graphiti'));
}

async function runClient(context: ClientScenarioContext, label: string, prompt: string): Promise<CommandResult> {
  const { client, sandbox, entry, tools } = context;
  const invocation = client.invocation(prompt, context);
  const result = await sandbox.run(process.execPath, [entry, ...invocation.args], {
    cwd: sandbox.workspace,
    timeoutMs: 120_000,
    extraEnvironment: { ...invocation.environment, ...context.clientEnvironment },
  });
  tools.keep(`${client.target}-${label}`, [client.target, ...invocation.args], result);
  return result;
}

/**
 * Merges the test's settings into the config `hooks install` wrote: `capture.idleMinutes: 1` (the
 * shortest digest idle), and `recall.timeoutMs: 3000` — on a busy 2-core machine a CLI loading
 * beside the hook makes the default 750 ms deadline miss (fail-open: the turn goes on without recall).
 */
function applyTestSettings(sandbox: Sandbox): void {
  const file = path.join(sandbox.configDirectory, 'config.json');
  const config = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const section = (name: string): Record<string, unknown> => {
    const value = config[name];
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  };
  const next = { ...config, capture: { ...section('capture'), idleMinutes: 1 }, recall: { ...section('recall'), timeoutMs: 3000 } };
  fs.writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`);
}

async function promote(context: ClientScenarioContext, text: string, kind: string): Promise<HarnessResult> {
  const { tools, checks, sandbox, emulator } = context;
  const run = await tools.harness(['promote', text, '--kind', kind, '--scope', 'workspace', '--workspace', sandbox.workspace, '--wait', '20'], 40_000);
  const confirmed = run.status === 0 && run.json?.confirmed === 1;
  checks.check(`\`promote --kind ${kind}\` exits 0 and confirms it stored`, confirmed, confirmed ? '' : describeCommand(run));
  const stored = await waitFor(() => (emulator.state.episodes().some((episode) => episode.content.includes(text)) ? true : undefined), 10_000);
  checks.check(`the emulator processed the ${kind}`, stored === true);
  return run;
}

async function stepInstall(context: ClientScenarioContext): Promise<void> {
  const { checks, tools, client, endpoint, sandbox } = context;
  checks.begin(`${client.title} 1. hooks install --target ${client.target}, a promoted decision and a lesson`);
  const install = await tools.harness(['hooks', 'install', '--target', client.target, '--endpoint', endpoint]);
  checks.check(`\`hooks install --target ${client.target}\` exits 0`, install.status === 0, describeCommand(install));
  const files = ourHookFiles(context);
  checks.check(`${client.title}'s hook file(s) in the throwaway HOME carry our hooks`, files.length > 0, files.map((file) => path.relative(sandbox.home, file)).join(', ') || `none of ${client.hookFiles(sandbox.home).join(', ') || '(no file)'}`);
  if (fs.existsSync(path.join(sandbox.configDirectory, 'config.json'))) applyTestSettings(sandbox);
  await promote(context, DECISION, 'decision');
  await promote(context, LESSON, 'lesson_learned');
}

/** Returns whether any hook of ours ran in the session. */
async function stepSession(context: ClientScenarioContext): Promise<boolean> {
  const { checks, client, model, sandbox } = context;
  checks.begin(`${client.title} 2. a one-shot session: the brief and the recall reach the model once each`);
  const runsBefore = hookRuns(sandbox).length;
  const first = model.requests.length;
  const run = await runClient(context, 'session', PROMPT);
  checks.check(`${client.title} exits 0`, run.status === 0, describeCommand(run));
  const calls = model.modelCalls(first);
  checks.check(`${client.title} called the scripted ${model.format.name}`, calls.length > 0, `${calls.length} model calls`);
  const runs = hookRuns(sandbox).slice(runsBefore);
  const trust = client.target === 'codex' ? ' without --dangerously-bypass-hook-trust (the install recorded Codex’s hook trust)' : '';
  checks.check(`${client.title} ran our hooks${trust} (runs.jsonl)`, runs.length >= 3, `ran: ${describeRuns(runs)}`);

  const contexts = calls.map((body) => model.format.hookContexts(body));
  const briefs = contexts.flatMap((entry) => entry.sessionStart);
  const recalls = contexts.flatMap((entry) => entry.prompt);
  const allText = calls.map((body) => textOf(body)).join('\n');
  checks.check(
    'the session-start brief (with the decision) is in the model request, where the client puts session-start context',
    briefs.some((text) => MEMORY_BLOCK.test(text) && text.includes(DECISION)),
    `${briefs.length} session-start contexts, ${briefs.filter((text) => text.includes(DECISION)).length} with the decision`,
  );
  checks.check('the decision reaches the model exactly once', occurrences(allText, DECISION_MARK) === 1, `"${DECISION_MARK}" ${occurrences(allText, DECISION_MARK)} times in ${calls.length} model calls`);
  // The brief is recall too: when its tier already holds the lesson's fact (the drainer's refresh
  // after the promotions may or may not have come after Graphiti extracted it), the brief gives it
  // and the prompt's recall, saying each memory once, adds only what is new.
  const lessonInBrief = briefs.some((text) => text.includes(LESSON_MARK));
  const lessonInRecall = recalls.some((text) => MEMORY_BLOCK.test(text) && text.includes(LESSON_MARK));
  checks.check(
    'the lesson reaches the model through memory: the prompt hook’s recall (where the client puts prompt context), or the brief when its tier already held it',
    lessonInRecall || lessonInBrief,
    `${recalls.length} prompt contexts, ${recalls.filter((text) => text.includes(LESSON_MARK)).length} with the lesson; in the brief: ${lessonInBrief}`,
  );
  const promptRuns = runs.filter((entry) => entry.event === 'UserPromptSubmit');
  checks.check(
    'the prompt hook’s recall is in the model request where the client puts prompt context, or it had nothing the brief had not given',
    recalls.some((text) => MEMORY_BLOCK.test(text)) || (lessonInBrief && promptRuns.some((entry) => entry.outcome === 'said-before')),
    `${recalls.filter((text) => MEMORY_BLOCK.test(text)).length} recall blocks; prompt hook: ${promptRuns.map((entry) => entry.outcome).join(', ') || 'did not run'}`,
  );
  checks.check('the lesson reaches the model exactly once (brief and recall never both), and the recall does not repeat the decision', occurrences(allText, LESSON_MARK) === 1 && !recalls.some((text) => text.includes(DECISION_MARK)), `"${LESSON_MARK}" ${occurrences(allText, LESSON_MARK)} times; recall with the decision: ${recalls.filter((text) => text.includes(DECISION_MARK)).length}`);
  checks.check(`${client.title} prints the scripted answer given from memory`, run.stdout.includes(ANSWER_WITH_MEMORY), `stdout: ${JSON.stringify(run.stdout.trim().slice(0, 200))}`);
  return runs.length > 0;
}

async function stepStored(context: ClientScenarioContext, hooksRan: boolean): Promise<void> {
  const { checks, client, emulator } = context;
  checks.begin(`${client.title} 3. the turn is stored exactly once, with no further command`);
  // With no hook of ours run, nothing can come: fail at once instead of waiting out the while.
  const stored = hooksRan && (await waitForStoredTurns(emulator, 1, STORED_WITHIN_MS));
  checks.check(`the session's turn is stored within ${STORED_WITHIN_MS / 1000} s`, stored, describeStoredTurns(emulator));
  const captured = deliveriesOf(emulator.requests).filter((delivery) => isCapturedEpisodeName(delivery.name));
  checks.check(
    'a stored episode holds the prompt and the answer',
    captured.some((delivery) => delivery.content.includes(PROMPT) && delivery.content.includes(ANSWER_WITH_MEMORY)),
    `${captured.length} captured deliveries: ${captured.map((delivery) => delivery.name).join(', ') || 'none'}`,
  );
  // What our hooks put into the prompt is memory, not the user's words: it must not be stored back.
  const echoed = captured.filter((delivery) => MEMORY_BLOCK.test(delivery.content) || delivery.content.includes(LESSON_MARK));
  checks.check('no captured episode carries the context our hooks injected (no <graphiti_memory>, not the recalled lesson)', echoed.length === 0, echoed.map((delivery) => delivery.name).join(', '));
  const perGroup = new Map<string, number>();
  for (const delivery of captured) if (delivery.content.includes(PROMPT)) perGroup.set(delivery.groupId, (perGroup.get(delivery.groupId) ?? 0) + 1);
  checks.check('the prompt is in one captured episode per group', perGroup.size > 0 && [...perGroup.values()].every((count) => count === 1), [...perGroup].map(([group, count]) => `${group} ×${count}`).join(', ') || 'in none');
  const sent = [...countByGroupAndName(captured)];
  checks.check('each captured episode was sent exactly once', sent.length > 0 && sent.every(([, count]) => count === 1), sent.map(([key, count]) => `${key} ×${count}`).join(', ') || 'none sent');
  const kept = [...storedTurnCounts(emulator)];
  checks.check('each captured episode is stored exactly once', kept.length > 0 && kept.every(([, count]) => count === 1), kept.map(([key, count]) => `${key} ×${count}`).join(', ') || 'none stored');
}

/**
 * Forget reaches every prompt: the decision's episode and every episode that repeats it (the stored
 * turn's answer quotes it, in its session's and its workspace's group) are forgotten with
 * `graphiti-harness forget --episode`; a new session's brief and recall then carry none of it,
 * while the lesson, not forgotten, still reaches the model (the hooks did run).
 */
async function stepForget(context: ClientScenarioContext): Promise<void> {
  const { checks, client, tools, sandbox, emulator, model } = context;
  checks.begin(`${client.title} 4. forget the decision: a new session's brief and recall carry none of it`);
  const holding = emulator.state.episodes().filter((episode) => episode.content.includes(DECISION_MARK));
  checks.check('the decision is held by the promoted episode and the stored turn', holding.length >= 2, `${holding.length} episodes hold it`);
  // Forgetting one copy of a captured turn forgets its other copies too: each round takes what is left.
  for (let round = 0; round < holding.length; round += 1) {
    const episode = emulator.state.episodes().find((each) => each.content.includes(DECISION_MARK));
    if (episode === undefined) break;
    const run = await tools.harness(['forget', '--episode', episode.uuid, '--group', episode.group_id, '--yes', '--workspace', sandbox.workspace], 40_000);
    checks.check(`\`forget --episode\` of the ${isCapturedEpisodeName(episode.name) ? 'stored turn' : 'promoted decision'} exits 0`, run.status === 0, describeCommand(run));
  }
  const left = emulator.state.facts().filter((fact) => fact.fact.includes(DECISION_MARK)).length + emulator.state.episodes().filter((episode) => episode.content.includes(DECISION_MARK)).length;
  checks.check('Graphiti keeps no episode or fact holding the decision', left === 0, `${left} left`);

  const runsBefore = hookRuns(sandbox).length;
  const first = model.requests.length;
  const run = await runClient(context, 'after-forget', PROMPT);
  checks.check(`${client.title} exits 0`, run.status === 0, describeCommand(run));
  const calls = model.modelCalls(first);
  const runs = hookRuns(sandbox).slice(runsBefore);
  checks.check('our session-start and prompt hooks ran', runs.some((entry) => entry.event === 'SessionStart') && runs.some((entry) => entry.event === 'UserPromptSubmit'), `ran: ${describeRuns(runs)}`);
  const allText = calls.map((body) => textOf(body)).join('\n');
  checks.check('no model request carries the forgotten decision (brief, recall or anything else)', calls.length > 0 && !allText.includes(DECISION_MARK), `${calls.length} model calls; "${DECISION_MARK}" ${occurrences(allText, DECISION_MARK)} times`);
  checks.check('the lesson, not forgotten, still reaches the model through memory', allText.includes(LESSON_MARK), `${calls.length} model calls`);
  checks.check(`${client.title} answers without the decision`, run.stdout.includes(ANSWER_WITHOUT_MEMORY), `stdout: ${JSON.stringify(run.stdout.trim().slice(0, 200))}`);
}

function describeProcesses(pids: readonly number[]): string {
  return pids.map((pid) => {
    try {
      return `${pid}: ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()}`;
    } catch {
      return `${pid}`;
    }
  }).join('\n');
}

async function stepUninstall(context: ClientScenarioContext): Promise<void> {
  const { checks, client, tools, sandbox, emulator, model } = context;
  checks.begin(`${client.title} 5. hooks uninstall --target ${client.target}: a new session runs none of ours`);
  const uninstall = await tools.harness(['hooks', 'uninstall', '--target', client.target]);
  checks.check(`\`hooks uninstall --target ${client.target}\` exits 0`, uninstall.status === 0, describeCommand(uninstall));
  const left = ourHookFiles(context);
  checks.check(`${client.title}'s hook files carry nothing of ours`, left.length === 0, left.join(', '));
  const gone = await waitFor(() => (sandbox.processes().length === 0 ? true : undefined), 10_000, 250);
  checks.check('the hook server and drainer leave within 10 s', gone === true, describeProcesses(sandbox.processes()));

  context.emulator.clearRequests();
  const episodesBefore = emulator.state.episodes().length;
  const runsBefore = hookRuns(sandbox).length;
  const first = model.requests.length;
  const run = await runClient(context, 'after-uninstall', PROMPT);
  checks.check(`${client.title} exits 0`, run.status === 0, describeCommand(run));
  await sleep(2_000);
  const calls = model.modelCalls(first);
  const contexts = calls.map((body) => model.format.hookContexts(body));
  const ours = contexts.flatMap((entry) => [...entry.sessionStart, ...entry.prompt]).filter((text) => MEMORY_BLOCK.test(text));
  checks.check('no hook output of ours reaches the model', calls.length > 0 && ours.length === 0 && !calls.some((body) => MEMORY_BLOCK.test(textOf(body))), `${calls.length} model calls; ${ours.length} contexts of ours`);
  checks.check('no model request carries the decision', !calls.some((body) => textOf(body).includes(DECISION_MARK)));
  checks.check(`${client.title} answers without memory`, run.stdout.includes(ANSWER_WITHOUT_MEMORY), `stdout: ${JSON.stringify(run.stdout.trim().slice(0, 200))}`);
  const runs = hookRuns(sandbox).slice(runsBefore);
  checks.check('none of our hooks ran (runs.jsonl unchanged)', runs.length === 0, describeRuns(runs));
  const received = emulator.requests.map((request) => `${request.method} ${request.path}`);
  checks.check('Graphiti receives no request at all', received.length === 0, received.join(', '));
  checks.check('no new episode', emulator.state.episodes().length === episodesBefore, `${emulator.state.episodes().length - episodesBefore} new`);
  const lingering = sandbox.processes();
  checks.check('no process of the run is left', lingering.length === 0, describeProcesses(lingering));
}

function checkLogsHoldNoContent(context: ClientScenarioContext): void {
  const { checks, sandbox, client } = context;
  checks.begin(`${client.title} logs`);
  const files = ['hook.log', 'runs.jsonl'].map((name) => path.join(sandbox.stateDirectory, 'hooks', name)).filter((file) => fs.existsSync(file));
  const content = files.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
  const found = [DECISION, LESSON_MARK, PROMPT, ANSWER_WITH_MEMORY].filter((text) => content.includes(text));
  checks.check('hook.log and runs.jsonl hold no prompt, answer or memory text', files.length > 0 && found.length === 0, found.length > 0 ? `found: ${found.join(' | ')}` : `${files.length} files`);
}

export async function runClientScenario(context: ClientScenarioContext): Promise<void> {
  context.client.configure(context);
  await stepInstall(context);
  const hooksRan = await stepSession(context);
  await stepStored(context, hooksRan);
  await stepForget(context);
  await stepUninstall(context);
  checkLogsHoldNoContent(context);
}
