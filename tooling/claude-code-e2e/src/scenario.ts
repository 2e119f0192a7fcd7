// The scenario of issue 19, in one run: hooks installed and a decision promoted → the decision
// reaches the model's request → the turn is stored exactly once (also after a resumed session) →
// after `forget`, and again after `hooks uninstall`, nothing of it reaches the model or Graphiti,
// and no hook process is left. Assertions are recorded, never weakened: a broken promise is a ✘.
import fs from 'node:fs';
import path from 'node:path';
import type { RecordedRequest, RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import type { Checks } from './checks.js';
import { memoryRecallCall, stepMcpRecall } from './mcp-scenario.js';
import { countByGroupAndName, deliveriesOf, isCapturedEpisodeName, type Delivery } from './deliveries.js';
import { messagesRequests, textOf, type ModelRequest, type RunningModelServer, type ScriptedToolUse } from './model-server.js';
import { sleep, waitFor, type Sandbox } from './sandbox.js';
import { describeStoredTurns, storedTurnCounts, waitForStoredTurns } from './stored-turns.js';
import type { ClaudeResult, HarnessResult, Tools } from './tools.js';

export const DECISION = 'we deploy with blue-green releases';
/** What would betray the decision anywhere it must not be. */
export const DECISION_MARK = 'blue-green';
export const ANSWER_WITH_MEMORY = 'Your memory says: we deploy with blue-green releases.';
export const ANSWER_WITHOUT_MEMORY = 'I have no record of how this project deploys.';
/** The prompts of the captured session (step 3): each must be in one captured episode per group. */
const PROMPTS = ['How do we deploy?', 'And how do we roll back?'];
const MEMORY_BLOCK = /<graphiti_memory>[\s\S]*?<\/graphiti_memory>/g;
/** How Claude Code (2.1.112) labels a hook's `additionalContext` in the model request. */
const HOOK_CONTEXT = /(SessionStart|UserPromptSubmit) hook additional context: (<graphiti_memory>[\s\S]*?<\/graphiti_memory>)/g;

/**
 * The scripted model: offered our MCP server's recall tool, it calls it first; it answers from
 * memory only when the decision is in its request.
 */
export function scriptedAnswer(body: Readonly<Record<string, unknown>>): string | ScriptedToolUse {
  return memoryRecallCall(body) ?? (textOf(body).includes(DECISION_MARK) ? ANSWER_WITH_MEMORY : ANSWER_WITHOUT_MEMORY);
}

export interface ScenarioContext {
  readonly sandbox: Sandbox;
  readonly tools: Tools;
  readonly emulator: RunningEmulator;
  readonly model: RunningModelServer;
  readonly checks: Checks;
  /** The endpoint the hooks are installed with (the MCP face's is `<url>/mcp/`). */
  readonly endpoint: string;
  /** The harness binary (`graphiti-harness mcp` for the MCP client step). */
  readonly harness: string;
  /** The emulator's request log as it was before each clear (kept as an artifact). */
  readonly emulatorHistory: RecordedRequest[];
}

function clearEmulatorLog(context: ScenarioContext): void {
  context.emulatorHistory.push(...context.emulator.requests);
  context.emulator.clearRequests();
}

/** A harness command's exit and stderr, for a failed check. */
const describeCommand = (run: HarnessResult): string =>
  run.status === 0 ? '' : `exit ${run.status ?? run.signal}${run.timedOut ? ' (timed out)' : ''}; stderr: ${run.stderr.trim().slice(0, 400) || '(empty)'}`;

const describeExit = (run: ClaudeResult): string =>
  run.status === 0 && run.result?.is_error !== true ? '' : `exit ${run.status ?? run.signal}${run.timedOut ? ' (timed out)' : ''}; stderr: ${run.stderr.trim().slice(0, 400) || '(empty)'}; stdout: ${run.stdout.trim().slice(0, 300)}`;

function memoryBlocks(requests: readonly ModelRequest[]): string[] {
  return messagesRequests(requests).flatMap((request) => textOf(request.body).match(MEMORY_BLOCK) ?? []);
}

/** The memory blocks each hook put into the model requests, by hook event. */
function blocksByHook(requests: readonly ModelRequest[]): Map<string, string[]> {
  const byHook = new Map<string, string[]>();
  for (const request of messagesRequests(requests)) {
    for (const [, event = '', block = ''] of textOf(request.body).matchAll(HOOK_CONTEXT)) byHook.set(event, [...(byHook.get(event) ?? []), block]);
  }
  return byHook;
}

const hooksCarrying = (requests: readonly ModelRequest[], text: string): string =>
  [...blocksByHook(requests)].filter(([, blocks]) => blocks.some((block) => block.includes(text))).map(([event]) => event).join(', ') || 'none';

/** The product's record of hook runs (documented in the harness README), one parsed line each. */
function hookRuns(sandbox: Sandbox): Array<{ event?: string; outcome?: string }> {
  const file = path.join(sandbox.stateDirectory, 'hooks', 'runs.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as { event?: string; outcome?: string }];
      } catch {
        return [];
      }
    });
}

function describeProcesses(pids: readonly number[]): string {
  return pids
    .map((pid) => {
      try {
        return `${pid}: ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()}`;
      } catch {
        return `${pid}`;
      }
    })
    .join('\n');
}

function checkStoredOnce(context: ScenarioContext, what: string): void {
  const { checks, emulator } = context;
  const turnDeliveries = deliveriesOf(emulator.requests).filter((delivery) => isCapturedEpisodeName(delivery.name));
  const sent = countByGroupAndName(turnDeliveries);
  const resent = [...sent].filter(([, count]) => count !== 1);
  // Each turn once per group: a turn's prompt is in one captured episode of a group, never two.
  const prompts = new Map<string, number>();
  for (const delivery of turnDeliveries) {
    for (const prompt of PROMPTS) if (delivery.content.includes(prompt)) prompts.set(`${delivery.groupId} "${prompt}"`, (prompts.get(`${delivery.groupId} "${prompt}"`) ?? 0) + 1);
  }
  const repeated = [...prompts].filter(([, count]) => count > 1);
  checks.check(
    `${what}: each turn's prompt is in one captured episode per group (no turn sent twice, not even inside a later digest)`,
    prompts.size > 0 && repeated.length === 0,
    repeated.length > 0 ? `repeated: ${repeated.map(([key, count]) => `${key} ×${count}`).join(', ')}` : `${prompts.size} group+prompt pairs, each once`,
  );
  checks.check(
    `${what}: each captured episode was sent to Graphiti exactly once per group`,
    sent.size > 0 && resent.length === 0,
    resent.length > 0 ? `sent more than once: ${resent.map(([key, count]) => `${key} ×${count}`).join(', ')}` : `${sent.size} group+name pairs, each once`,
  );
  const stored = storedTurnCounts(emulator);
  const duplicated = [...stored].filter(([, count]) => count !== 1);
  const missing = [...sent.keys()].filter((key) => !stored.has(key));
  checks.check(
    `${what}: each captured episode is stored exactly once`,
    stored.size > 0 && duplicated.length === 0 && missing.length === 0,
    duplicated.length > 0 || missing.length > 0
      ? `duplicated: ${duplicated.map(([key, count]) => `${key} ×${count}`).join(', ') || 'none'}; sent but not stored: ${missing.join(', ') || 'none'}`
      : `${stored.size} episodes`,
  );
}

async function step1InstallAndPromote(context: ScenarioContext): Promise<{ workspaceGroup: string | undefined; promotionName: string | undefined }> {
  const { checks, tools, sandbox, emulator, endpoint } = context;
  checks.begin('1. hooks install + promote a workspace decision');
  const install = await tools.harness(['hooks', 'install', '--target', 'claude', '--endpoint', endpoint]);
  checks.check('`hooks install --target claude` exits 0', install.status === 0, describeCommand(install));
  const settingsFile = path.join(sandbox.home, '.claude', 'settings.json');
  const settings = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : '';
  const events = ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd'].filter((event) => settings.includes(`--event ${event}`));
  checks.check('~/.claude/settings.json of the throwaway HOME has the four hook entries', events.length === 4, `found: ${events.join(', ') || 'none'}`);

  // No --endpoint: the endpoint comes from the config that `hooks install` wrote (one configuration).
  const promote = await tools.harness(['promote', DECISION, '--kind', 'decision', '--scope', 'workspace', '--workspace', sandbox.workspace, '--wait', '20'], 40_000);
  const promoted = promote.status === 0 && promote.json?.confirmed === 1;
  checks.check('`promote` exits 0 and confirms the decision stored', promoted, promoted ? '' : `exit ${promote.status}; ${promote.stdout.trim().slice(0, 300)} ${promote.stderr.trim().slice(0, 300)}`);
  const workspaceGroup = typeof promote.json?.groupId === 'string' ? promote.json.groupId : undefined;
  const promotionName = typeof promote.json?.name === 'string' ? promote.json.name : undefined;
  const stored = await waitFor(
    () => (emulator.state.episodes(workspaceGroup).some((episode) => episode.content.includes(DECISION)) ? true : undefined),
    10_000,
  );
  checks.check('the emulator (the installed endpoint) processed the promoted decision', stored === true, `group ${workspaceGroup ?? '(none in promote output)'}`);
  return { workspaceGroup, promotionName };
}

async function step2DecisionReachesModel(context: ScenarioContext): Promise<string | undefined> {
  const { checks, tools, sandbox, model } = context;
  checks.begin('2. `claude -p` with the hooks: the decision reaches the model');
  const first = model.requests.length;
  const run = await tools.claude('first', 'How do we deploy?');
  checks.check('the CLI exits 0', run.status === 0 && run.result?.is_error === false, describeExit(run));
  const requests = model.requests.slice(first);
  checks.check('the CLI called the scripted model', messagesRequests(requests).length > 0, `${messagesRequests(requests).length} Messages requests`);
  const byHook = blocksByHook(requests);
  const briefs = byHook.get('SessionStart') ?? [];
  checks.check(
    'the SessionStart brief puts a <graphiti_memory> block with the decision into the model request',
    briefs.some((block) => block.includes(DECISION)),
    `${briefs.length} blocks from SessionStart, ${briefs.filter((block) => block.includes(DECISION)).length} with the decision`,
  );
  // Say it once: the session's UserPromptSubmit recall found the decision too, but the brief gave it.
  const recalls = byHook.get('UserPromptSubmit') ?? [];
  checks.check(
    'the UserPromptSubmit recall does not repeat the decision the brief gave',
    !recalls.some((block) => block.includes(DECISION)),
    `${recalls.filter((block) => block.includes(DECISION)).length} UserPromptSubmit blocks with the decision`,
  );
  const saidBefore = hookRuns(sandbox).some((entry) => entry.event === 'UserPromptSubmit' && entry.outcome === 'said-before');
  checks.check('the UserPromptSubmit hook searched and left out what the session was given (runs.jsonl: said-before)', saidBefore, `runs: ${JSON.stringify(hookRuns(sandbox).map((entry) => `${entry.event}:${entry.outcome}`))}`);
  checks.check('the CLI prints the scripted answer given from memory', run.result?.result === ANSWER_WITH_MEMORY, `result: ${JSON.stringify(run.result?.result)}`);
  const ran = new Set(hookRuns(sandbox).map((entry) => entry.event));
  const expected = ['SessionStart', 'UserPromptSubmit', 'Stop'];
  checks.check('the hooks ran (runs.jsonl): SessionStart, UserPromptSubmit, Stop', expected.every((event) => ran.has(event)), `ran: ${[...ran].join(', ')}`);
  return typeof run.result?.session_id === 'string' ? run.result.session_id : undefined;
}

async function step3StoredOnce(context: ScenarioContext, sessionId: string | undefined): Promise<void> {
  const { checks, tools, emulator } = context;
  checks.begin('3. Stop, SessionEnd → drainer: the session is stored as a digest, each turn exactly once');
  const stored = await waitForStoredTurns(emulator, 1, 20_000);
  checks.check('the session’s digest is stored within 20 s', stored, describeStoredTurns(emulator));
  const turn = deliveriesOf(emulator.requests).filter((delivery) => isCapturedEpisodeName(delivery.name));
  checks.check(
    'the stored digest holds the prompt and the answer',
    turn.some((delivery) => delivery.name.includes('.digest.') && delivery.content.includes('How do we deploy?') && delivery.content.includes(ANSWER_WITH_MEMORY)),
    `${turn.length} captured deliveries: ${turn.map((delivery) => delivery.name).join(', ')}`,
  );
  checkStoredOnce(context, 'first turn');

  if (sessionId === undefined) {
    checks.check('the first run reported its session id (needed for --resume)', false, 'no session_id in the CLI output');
    return;
  }
  const resumed = await tools.claude('resume', 'And how do we roll back?', ['--resume', sessionId]);
  checks.check('`claude -p --resume` exits 0', resumed.status === 0 && resumed.result?.is_error === false, describeExit(resumed));
  const both = await waitForStoredTurns(emulator, 2, 20_000);
  checks.check('the resumed session’s new turn is stored (a second digest) within 20 s', both, describeStoredTurns(emulator));
  checkStoredOnce(context, 'after --resume (first turn not re-sent)');
}

async function step4aForget(context: ScenarioContext, workspaceGroup: string | undefined, promotionName: string | undefined): Promise<void> {
  const { checks, tools, sandbox, emulator, model } = context;
  checks.begin('4a. `forget --scope workspace`, hooks still installed: nothing of it reaches the model or Graphiti');
  const forgottenNames = new Set<string>(deliveriesOf(emulator.requests).map((delivery) => delivery.name));
  if (promotionName !== undefined) forgottenNames.add(promotionName);
  const forgottenGroups = new Set(deliveriesOf(emulator.requests).map((delivery) => delivery.groupId));

  const forget = await tools.harness(['forget', '--scope', 'workspace', '--workspace', sandbox.workspace, '--yes']);
  const deleted = Array.isArray(forget.json?.deletedGroups) ? (forget.json.deletedGroups as unknown[]).map(String) : [];
  checks.check('`forget --scope workspace --yes` exits 0', forget.status === 0, describeCommand(forget));
  checks.check(
    'forget deleted the workspace group and the session groups of the turns',
    [...forgottenGroups].every((group) => deleted.includes(group)) && (workspaceGroup === undefined || deleted.includes(workspaceGroup)),
    `deleted: ${deleted.join(', ') || 'none'}; written: ${[...forgottenGroups].join(', ')}`,
  );
  const left = [...forgottenGroups].flatMap((group) => emulator.state.episodes(group)).length;
  checks.check('Graphiti holds no episode of the forgotten groups', left === 0, `${left} episodes left`);

  clearEmulatorLog(context);
  const first = model.requests.length;
  const run = await tools.claude('after-forget', 'How do we deploy to production?');
  checks.check('the CLI exits 0', run.status === 0 && run.result?.is_error === false, describeExit(run));
  const requests = model.requests.slice(first);
  const blocks = memoryBlocks(requests);
  const leaks = messagesRequests(requests).filter((request) => textOf(request.body).includes(DECISION_MARK));
  checks.check(
    'no model request carries the forgotten decision',
    leaks.length === 0,
    leaks.length === 0
      ? ''
      : `${leaks.length} of ${messagesRequests(requests).length} requests carry "${DECISION_MARK}", put there by: ${hooksCarrying(requests, DECISION_MARK)}; in memory blocks:\n${blocks.filter((block) => block.includes(DECISION_MARK)).join('\n')}`,
  );
  checks.check(
    'no <graphiti_memory> block reaches the model (memory is empty after forget)',
    blocks.length === 0,
    blocks.length === 0 ? '' : `from: ${[...blocksByHook(requests).keys()].join(', ') || 'unlabelled'}`,
  );
  checks.check('the CLI answers without memory', run.result?.result === ANSWER_WITHOUT_MEMORY, `result: ${JSON.stringify(run.result?.result)}`);

  // This new turn is captured (the hooks are still installed); wait for its delivery, so step 4b
  // sees no request from it.
  await waitFor(() => (deliveriesOf(emulator.requests).some((delivery) => isCapturedEpisodeName(delivery.name)) && emulator.state.queueLength() === 0 ? true : undefined), 20_000, 200);
  await sleep(1_000);
  const resent = deliveriesOf(emulator.requests).filter((delivery: Delivery) => forgottenNames.has(delivery.name));
  checks.check('no forgotten message is sent to Graphiti again', resent.length === 0, resent.map((delivery) => `${delivery.groupId} ${delivery.name}`).join(', '));
  const carrying = deliveriesOf(emulator.requests).filter((delivery) => delivery.content.includes(DECISION_MARK));
  checks.check('nothing sent to Graphiti after forget carries the decision', carrying.length === 0, carrying.map((delivery) => `${delivery.groupId} ${delivery.name}`).join(', '));
}

/** Every file under `folder` (Claude Code's transcripts), for finding what it recorded. */
function filesUnder(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

async function step4cConfigTypo(context: ScenarioContext): Promise<void> {
  const { checks, tools, sandbox, model } = context;
  checks.begin('4c. a typo in config.json: told to the user once per session (systemMessage), never to the model');
  const configFile = path.join(sandbox.configDirectory, 'config.json');
  const original = fs.readFileSync(configFile, 'utf8');
  fs.writeFileSync(configFile, JSON.stringify({ ...(JSON.parse(original) as Record<string, unknown>), recal: { enabled: true } }));
  const noticeMark = 'unknown key `recal`; did you mean `recall`?';
  try {
    const transcriptsBefore = new Set(filesUnder(path.join(sandbox.home, '.claude', 'projects')));
    const first = model.requests.length;
    const run = await tools.claude('config-typo', 'How do we deploy?');
    checks.check('the CLI exits 0 (memory off, the chat goes on)', run.status === 0 && run.result?.is_error === false, describeExit(run));
    const requests = model.requests.slice(first);
    const leaked = messagesRequests(requests).filter((request) => textOf(request.body).includes(noticeMark) || textOf(request.body).includes('Graphiti Memory is off'));
    checks.check('no model request carries the config problem (never additionalContext)', leaked.length === 0, `${leaked.length} of ${messagesRequests(requests).length} requests carry it`);
    checks.check('no <graphiti_memory> block reaches the model', memoryBlocks(requests).length === 0);
    const runs = hookRuns(sandbox).slice(-6);
    checks.check(
      'the hooks logged bad-config for SessionStart and UserPromptSubmit (runs.jsonl)',
      ['SessionStart', 'UserPromptSubmit'].every((event) => runs.some((entry) => entry.event === event && entry.outcome === 'bad-config')),
      JSON.stringify(runs.map((entry) => `${entry.event}:${entry.outcome}`)),
    );
    const notices = fs.existsSync(path.join(sandbox.stateDirectory, 'hooks', 'notices')) ? fs.readdirSync(path.join(sandbox.stateDirectory, 'hooks', 'notices')) : [];
    checks.check('the user was told once in the session (one notice for SessionStart + UserPromptSubmit)', notices.length === 1, `${notices.length} notices recorded`);
    // Claude Code (2.1.112) records what it shows the user from a hook's systemMessage as a
    // `hook_system_message` attachment of the session's transcript (the model's request has none).
    const transcripts = filesUnder(path.join(sandbox.home, '.claude', 'projects')).filter((file) => file.endsWith('.jsonl') && !transcriptsBefore.has(file));
    const shown = transcripts
      .flatMap((file) => fs.readFileSync(file, 'utf8').split('\n'))
      .flatMap((line) => {
        try {
          const attachment = (JSON.parse(line) as { attachment?: { type?: unknown; content?: unknown; hookEvent?: unknown } }).attachment;
          return attachment?.type === 'hook_system_message' && typeof attachment.content === 'string' ? [{ event: String(attachment.hookEvent), content: attachment.content }] : [];
        } catch {
          return [];
        }
      });
    const told = shown.filter((message) => message.content.includes(noticeMark));
    checks.check(
      "Claude Code showed the hook's systemMessage once in the session, naming the file, the key and the nearest key",
      told.length === 1 && told[0]?.content.includes(configFile) === true,
      `${told.length} hook system messages carry it${told[0] === undefined ? '' : ` (from ${told[0].event}): ${told[0].content.slice(0, 300)}`}`,
    );
  } finally {
    fs.writeFileSync(configFile, original);
  }
}

async function step4bUninstall(context: ScenarioContext): Promise<void> {
  const { checks, tools, sandbox, emulator, model } = context;
  checks.begin('4b. `hooks uninstall`: nothing reaches the model or Graphiti, no hook process is left');
  const uninstall = await tools.harness(['hooks', 'uninstall', '--target', 'claude']);
  checks.check('`hooks uninstall --target claude` exits 0', uninstall.status === 0, describeCommand(uninstall));
  const settingsFile = path.join(sandbox.home, '.claude', 'settings.json');
  const settings = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : '';
  checks.check('~/.claude/settings.json has no hook entry of ours', !settings.includes('--installed-by graphiti-harness'));

  // The product's own view (`hooks status`: its hook server) and the run's processes (the drainer too).
  const serverRunning = async (): Promise<unknown> => {
    const status = await tools.harness(['hooks', 'status'], 10_000, false);
    const server = status.json?.server as { running?: unknown; pid?: unknown } | undefined;
    return server?.running === true ? server.pid : undefined;
  };
  const gone = await waitFor(async () => ((await serverRunning()) === undefined && sandbox.processes().length === 0 ? true : undefined), 5_000, 250);
  const pid = await serverRunning();
  checks.check(
    'the hook server and drainer leave within 5 s of `hooks uninstall`',
    gone === true,
    gone === true ? '' : `hooks status: server ${pid === undefined ? 'not running' : `running (pid ${String(pid)})`}; processes of the run:\n${describeProcesses(sandbox.processes())}`,
  );

  clearEmulatorLog(context);
  const first = model.requests.length;
  const run = await tools.claude('after-uninstall', 'How do we deploy?');
  await sleep(1_500);
  checks.check('the CLI exits 0', run.status === 0 && run.result?.is_error === false, describeExit(run));
  const requests = model.requests.slice(first);
  const blocks = memoryBlocks(requests);
  checks.check('no <graphiti_memory> block reaches the model', blocks.length === 0, blocks.join('\n'));
  const leaks = messagesRequests(requests).filter((request) => textOf(request.body).includes(DECISION_MARK));
  checks.check('no model request carries the decision', leaks.length === 0, `${leaks.length} requests carry "${DECISION_MARK}"`);
  checks.check('the CLI answers without memory', run.result?.result === ANSWER_WITHOUT_MEMORY, `result: ${JSON.stringify(run.result?.result)}`);
  const received = emulator.requests.map((request) => `${request.method} ${request.path}${request.route === null ? '' : ` (${request.route})`}`);
  checks.check('Graphiti receives no request at all', received.length === 0, received.join(', '));
  const lingering = sandbox.processes();
  checks.check('no process of the run is left (hook server, drainer)', lingering.length === 0, describeProcesses(lingering));
}

function checkLogsHoldNoContent(context: ScenarioContext): void {
  const { checks, sandbox } = context;
  checks.begin('logs');
  const files = ['hook.log', 'runs.jsonl'].map((name) => path.join(sandbox.stateDirectory, 'hooks', name)).filter((file) => fs.existsSync(file));
  const content = files.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
  const found = [DECISION, 'How do we deploy', ANSWER_WITH_MEMORY].filter((text) => content.includes(text));
  checks.check('hook.log and runs.jsonl hold no prompt, answer or memory text', files.length > 0 && found.length === 0, found.length > 0 ? `found: ${found.join(' | ')}` : `${files.length} files`);
}

export async function runScenario(context: ScenarioContext): Promise<void> {
  const { workspaceGroup, promotionName } = await step1InstallAndPromote(context);
  const sessionId = await step2DecisionReachesModel(context);
  await step3StoredOnce(context, sessionId);
  await stepMcpRecall({ ...context, decision: DECISION, answerWithMemory: ANSWER_WITH_MEMORY });
  // That session is captured too (the hooks are installed): stored before the forget, so step 4a sees no request from it.
  await waitForStoredTurns(context.emulator, 3, 20_000);
  await step4aForget(context, workspaceGroup, promotionName);
  await step4cConfigTypo(context);
  await step4bUninstall(context);
  checkLogsHoldNoContent(context);
}
