// The hooks of each assistant: installed, their runner on disk (and, for a copy the installers
// made, its version = this CLI's), no event that would fire twice; the hook server; the last hook
// runs that failed.
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import {
  AGENT_DETECTION,
  agentHooksStatus,
  assistantDescriptor,
  hookServerStatus,
  isOurHookCommand,
  mcpServersStatus,
  readHookRuns,
  runnerBuild,
  type AgentHookStatus,
  type DetectedAgent,
  type HookRun,
} from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { failed, passed, type DoctorCheck, type DoctorFacts } from './doctor-check.js';

/** The runner an installed hook command runs. */
export interface InstalledRunner {
  readonly path: string;
  readonly present: boolean;
  /** Its version, when the installers' status reports one. */
  readonly version?: string;
}

/** The words of a POSIX hook command line as `hookCommandLine` spells it (`'…'` quoting, `NAME=value` prefixes). */
export function commandWords(commandLine: string): string[] {
  const words: string[] = [];
  const pattern = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (const match of commandLine.matchAll(pattern)) words.push(match[1] !== undefined ? match[1].replace(/'\\''/g, "'") : (match[2] ?? ''));
  // Leading variable assignments (ELECTRON_RUN_AS_NODE=1) come before the program.
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0] ?? '')) words.shift();
  return words;
}

/** The runner script of one of our hook commands: the word after the node binary. */
export function installedRunner(commandLine: string): InstalledRunner | undefined {
  const script = commandWords(commandLine)[1];
  if (script === undefined || !path.isAbsolute(script)) return undefined;
  return { path: script, present: existsSync(script) };
}

/** One assistant's hooks, from the installers' status; `detected` says whether the assistant is on this machine. */
export function assistantHooksCheck(status: AgentHookStatus, detected: DetectedAgent | undefined, cliVersion: string): DoctorCheck {
  const id = `hooks.${status.target}`;
  const name = AGENT_DETECTION[status.target].name;
  if (status.problem !== undefined) return failed(id, `${name}: ${status.file} cannot be read: ${status.problem}`, `fix ${status.file} (it is JSON), then graphiti-harness setup --target ${status.target}`);
  if (status.entries.length === 0) {
    return passed(id, `${name}: not connected${detected?.found === true ? ` (found: ${detected.evidence.join(', ')}; graphiti-harness setup --target ${status.target} connects it)` : ''}`);
  }
  const runners = new Map<string, InstalledRunner>();
  for (const entry of status.entries) {
    const runner = installedRunner(entry.command);
    if (runner === undefined) return failed(id, `${name}: a hook in ${status.file} names no runner script`, `graphiti-harness setup --target ${status.target} (writes the entries again)`);
    // The installers know the version of the copies they made (runner.json beside it).
    const version = status.runner?.path === runner.path ? (status.runner.version ?? undefined) : undefined;
    runners.set(runner.path, version === undefined ? runner : { ...runner, version });
  }
  const missing = [...runners.values()].filter((runner) => !runner.present);
  if (missing.length > 0) {
    return failed(id, `${name}: the hooks in ${status.file} run ${missing.map((runner) => runner.path).join(', ')}, which does not exist (a moved or deleted checkout or package): every event fails`, `graphiti-harness setup --target ${status.target} (installs the hooks with the runner of this CLI)`);
  }
  const stale = [...runners.values()].filter((runner) => runner.version !== undefined && runner.version !== cliVersion);
  if (stale.length > 0) {
    return failed(id, `${name}: the hooks run runner ${stale.map((runner) => runner.version).join(', ')}, this CLI is ${cliVersion}`, `graphiti-harness setup --target ${status.target} (switches the hooks to this CLI's runner)`);
  }
  // An assistant with a trust step (Codex) runs none of our hooks until it trusts them, and says nothing.
  if (status.trust !== undefined && !status.trust.trusted) {
    const step = assistantDescriptor(status.target).trust?.manualStep;
    return failed(id, `${name}: installed in ${status.file}, but it will not run them: ${status.trust.detail}`, `graphiti-harness hooks install --target ${status.target} (records the trust), or ${step ?? 'trust them in the assistant'}`);
  }
  const events = [...new Set(status.entries.map((entry) => entry.event))].join(', ');
  const trusted = status.trust === undefined ? '' : `; ${status.trust.detail}`;
  return passed(id, `${name}: installed in ${status.file} (${events}); runner ${[...runners.keys()].join(', ')}${trusted}`);
}

/** Where VS Code keeps its user settings, per platform (stable and Insiders). */
function vscodeSettingsFiles(home: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const appData = env['APPDATA'];
  const roots = [path.join(home, '.config'), path.join(home, 'Library', 'Application Support'), ...(appData === undefined ? [] : [appData])];
  return roots.flatMap((root) => ['Code', 'Code - Insiders'].map((product) => path.join(root, product, 'User', 'settings.json')));
}

async function vscodeRunsClaudeHooks(home: string, env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  for (const file of vscodeSettingsFiles(home, env)) {
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    if (/"chat\.useClaudeHooks"\s*:\s*true/.test(text)) return file;
  }
  return undefined;
}

/** Our hooks where one event would run them twice: two Copilot hook files, one event twice in a file, or VS Code reading Claude's too. */
export async function duplicateHooksCheck(facts: DoctorFacts, statuses: readonly AgentHookStatus[]): Promise<DoctorCheck> {
  const problems: string[] = [];
  let next = '';
  for (const status of statuses) {
    const perEvent = new Map<string, number>();
    for (const entry of status.entries) perEvent.set(entry.event, (perEvent.get(entry.event) ?? 0) + 1);
    const twice = [...perEvent].filter(([, count]) => count > 1).map(([event]) => event);
    if (twice.length > 0) {
      problems.push(`${status.file} has our hook more than once for ${twice.join(', ')}`);
      next ||= `graphiti-harness hooks uninstall --target ${status.target}, then graphiti-harness setup --target ${status.target}`;
    }
  }
  // Copilot reads every *.json in ~/.copilot/hooks: ours in a second file run again.
  const copilotFile = statuses.find((status) => status.target === 'copilot')?.file;
  if (copilotFile !== undefined) {
    const folder = path.dirname(copilotFile);
    const names = await fs.readdir(folder).catch(() => [] as string[]);
    for (const name of names.filter((each) => each.endsWith('.json') && path.join(folder, each) !== copilotFile)) {
      const text = await fs.readFile(path.join(folder, name), 'utf8').catch(() => '');
      if (hasOurHook(text)) {
        problems.push(`${path.join(folder, name)} also holds our hooks (Copilot reads every file there, so each event runs twice)`);
        next ||= `remove our entries from ${path.join(folder, name)} (or delete it if it is an old copy)`;
      }
    }
  }
  const connected = (target: string) => statuses.some((status) => status.target === target && status.entries.length > 0);
  // Overlaps one-event-once answers (the second run of an event stays silent): named, not failed.
  const handled: string[] = [];
  if (connected('copilot') && connected('copilot-cli')) {
    handled.push(`VS Code runs both Copilot files in ${path.dirname(copilotFile ?? '~/.copilot/hooks')} (it reads Copilot CLI's bash entries too)`);
  }
  if (connected('copilot-cli')) {
    for (const name of ['settings.json', 'settings.local.json']) {
      const file = path.join(facts.context.terminal.cwd, '.claude', name);
      if (hasOurHook(await fs.readFile(file, 'utf8').catch(() => ''))) handled.push(`Copilot CLI runs ${file} (a trusted repository's Claude hooks) beside its own`);
    }
  }
  if (connected('claude') && connected('copilot')) {
    const settings = await vscodeRunsClaudeHooks(facts.home, facts.env);
    if (settings !== undefined) {
      problems.push(`VS Code runs Claude Code's hooks as well as Copilot's (chat.useClaudeHooks in ${settings}): each prompt is recalled twice there`);
      next ||= `set "chat.useClaudeHooks": false in ${settings}`;
    }
  }
  const overlap = handled.length === 0 ? '' : ` (overlaps, each event answered once: ${handled.join('; ')})`;
  return problems.length === 0 ? passed('hooks.duplicates', `no event runs our hooks twice${overlap}`) : failed('hooks.duplicates', `${problems.join('; ')}${overlap}`, next);
}

function hasOurHook(text: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  let found = false;
  const visit = (value: unknown): void => {
    if (found || value === null || typeof value !== 'object') return;
    for (const [key, child] of Object.entries(value)) {
      if ((key === 'command' || key === 'bash' || key === 'powershell' || key === 'windows') && isOurHookCommand(child)) found = true;
      else visit(child);
    }
  };
  visit(parsed);
  return found;
}

export async function assistantStatuses(facts: DoctorFacts): Promise<AgentHookStatus[]> {
  return agentHooksStatus(facts.home, facts.env);
}

export function noAssistantCheck(statuses: readonly AgentHookStatus[], mcp: readonly McpClientStatus[] = []): DoctorCheck {
  const connected = statuses.filter((status) => status.entries.length > 0);
  if (connected.length > 0) return passed('hooks', `connected: ${connected.map((status) => AGENT_DETECTION[status.target].name).join(', ')}`);
  const viaMcp = mcp.filter((client) => client.installed);
  // Only the MCP server: recall and remember on the assistant's request, but no turn is captured.
  if (viaMcp.length > 0) {
    return passed('hooks', `no hooks; the MCP server only, in ${viaMcp.map((client) => client.label).join(', ')} (recall and remember when the assistant calls them; turns are not captured — graphiti-harness setup adds the hooks)`);
  }
  return failed('hooks', 'no assistant is connected: no hook sends or recalls anything', 'graphiti-harness setup');
}

export type McpClientStatus = Awaited<ReturnType<typeof mcpServersStatus>>[number];

export function mcpClientStatuses(facts: DoctorFacts): Promise<McpClientStatus[]> {
  return mcpServersStatus({ home: facts.home, env: facts.env });
}

/** Our MCP server in each client that has it: its file readable, the server copy it runs on disk. */
export function mcpServerCheck(statuses: readonly McpClientStatus[]): DoctorCheck {
  const unreadable = statuses.filter((client) => client.problem !== undefined);
  const installed = statuses.filter((client) => client.installed);
  const missing = installed.filter((client) => {
    const script = client.command?.args.find((arg) => path.isAbsolute(arg) && /\.(?:mjs|cjs|js)$/.test(arg));
    return script !== undefined && !existsSync(script);
  });
  if (missing.length > 0) {
    const [first] = missing as [McpClientStatus];
    return failed(
      'mcp',
      `${missing.map((client) => `${client.label} runs ${client.command?.args[0] ?? '?'}, which does not exist`).join('; ')}: its memory tools fail to start`,
      `graphiti-harness mcp install --target ${first.target} (copies this CLI's server and points ${first.label} at it)`,
    );
  }
  const problems = unreadable.map((client) => `${client.label}: ${client.file} cannot be read (${client.problem ?? ''})`).join('; ');
  const where = installed.length === 0 ? 'in no MCP client (graphiti-harness mcp install --target … adds it)' : `in ${installed.map((client) => `${client.label} (${client.file})`).join(', ')}`;
  return passed('mcp', `MCP server ${where}${problems === '' ? '' : `; ${problems}`}`);
}

export async function hookServerCheck(facts: DoctorFacts): Promise<DoctorCheck> {
  const server = await hookServerStatus(facts.env as NodeJS.ProcessEnv, runnerBuild(hookRunnerFile()));
  if (server.running) {
    if (server.storageFault !== undefined) {
      return failed('hook-server', `running (pid ${server.pid}), but a ${server.storageFault.event} at ${server.storageFault.at} could not write: ${server.storageFault.message}`, 'free space in the state folder or fix its permissions (see the state-folder check)');
    }
    return passed('hook-server', `running (pid ${server.pid}, since ${server.since})`);
  }
  // Not running is normal: the next hook event starts it. Only a folder that is not ours is a problem.
  if (server.reason.includes('not safely ours')) return failed('hook-server', `cannot start: ${server.reason}`, 'check the owner and mode of the hook server\'s folder (the runtime folder, e.g. $XDG_RUNTIME_DIR): it must be yours, 0700');
  return passed('hook-server', server.reason);
}

/** Outcomes of a hook run that mean it did not do its job. */
const FAILED_OUTCOMES = new Set(['failed', 'bad-config', 'bad-input']);
const RUNS_LOOKED_AT = 20;

export async function hookRunsCheck(facts: DoctorFacts): Promise<DoctorCheck> {
  const runs = await readHookRuns(facts.stateDirectory, RUNS_LOOKED_AT);
  if (runs.length === 0) return passed('hook-runs', 'no hook runs yet');
  const failures = runs.filter((run) => FAILED_OUTCOMES.has(run.outcome));
  if (failures.length === 0) return passed('hook-runs', `the last ${runs.length} hook runs did their job (last: ${runs[runs.length - 1]?.time})`);
  return failed(
    'hook-runs',
    `${failures.length} of the last ${runs.length} hook runs failed; latest: ${failures.slice(-3).map(describeRun).join('; ')}`,
    nextForRuns(failures),
  );
}

function describeRun(run: HookRun): string {
  return `${run.time} ${run.event} ${run.outcome}${run.detail === undefined ? '' : ` (${run.detail})`}`;
}

function nextForRuns(failures: readonly HookRun[]): string {
  const last = failures[failures.length - 1];
  if (last?.outcome === 'bad-config') return 'fix the configuration (see the config check), then the next prompt works again';
  return `graphiti-harness hooks status shows the runs; ${path.join('<state folder>', 'hooks', 'hook.log')} has the reasons`;
}
