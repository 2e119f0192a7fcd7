// `graphiti-harness hooks install|uninstall|status`: Graphiti Memory in every registered assistant
// (agent-hooks' assistant registry: `--target` takes each descriptor's name). Install writes our
// entries into their hook files (an absolute node and runner script, never a key) and stores the
// common options, with consent for exactly that endpoint, in the user config; uninstall removes
// exactly our entries; status shows every assistant.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileMemorySwitches, ignoredLines, readConfigFile, resolveMemoryConfig, sharedStateDirectory, type MemorySwitchesRead, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { Command, Option } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError, UsageError } from '../cli/harness-errors.js';
import { harnessBinary, harnessPackage } from '../cli/harness-package.js';
import {
  AGENT_HOOK_TARGETS,
  agentHooksStatus,
  connectAgents,
  disconnectAgents,
  endpointChangeLines,
  endpointDeliveryNotice,
  hookServerStatus,
  mcpServersStatus,
  readHookRuns,
  runnerBuild,
  runningHookServers,
  type AgentHookCommand,
  type AgentHookChange,
  type AgentHookTarget,
  type AgentsConnected,
} from '@graphiti-memory/agent-hooks';
import { probeSummary, probeUrl, type EndpointProbe } from '../endpoint/probe-endpoint.js';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import type { CommandRegistrar } from './command-registrar.js';

const TARGET_CHOICES = [...AGENT_HOOK_TARGETS, 'all'] as const;

interface HooksOptions extends RawCommonOptions {
  readonly target?: string;
  readonly runner?: string;
}

export const registerHooksCommand: CommandRegistrar = (program, run) => {
  const hooks = new Command('hooks').description(`connect assistants (${AGENT_HOOK_TARGETS.join(', ')}) to Graphiti Memory (install, uninstall, status)`);
  hooks.addCommand(
    addCommonOptions(
      new Command('install')
        .description('write our hook entries into the hook file of the assistant (--target; all: every one)')
        .addOption(new Option('--target <target>', 'which agent').choices(TARGET_CHOICES).makeOptionMandatory())
        .option('--runner <path>', 'the hook runner script, run where it is (default: the bundled dist/hook-runner.cjs, copied to <state folder>/runner/<version>+<build>/)')
        .addHelpText(
          'after',
          [
            '',
            'Installing is your consent to send prompts (for recall) and the transcripts of those sessions to --endpoint;',
            'it is recorded, with the options given, in the user config (never the API key: --api-key goes to a 0600 key file).',
            'Running it twice adds nothing; the previous settings file is kept as <file>.graphiti-memory-backup.',
            '',
            'Examples:',
            '  graphiti-harness hooks install --target claude --endpoint http://localhost:8000',
            '  graphiti-harness hooks install --target all --endpoint http://localhost:8000 --scopes workspace,user --timeout-ms 500',
          ].join('\n'),
        ),
    ).action((raw: HooksOptions) => run(raw, (context) => install(context, raw), { configFiles: false })),
  );
  hooks.addCommand(
    addCommonOptions(
      new Command('uninstall')
        .description('remove exactly our hook entries (and the consent, once no agent has them)')
        .addOption(new Option('--target <target>', 'which agent').choices(TARGET_CHOICES).default('all')),
    ).action((raw: HooksOptions) => run(raw, (context) => uninstall(context, raw), { configFiles: false })),
  );
  hooks.addCommand(
    addCommonOptions(new Command('status').description('what is installed where, the configuration, and the last hook runs')).action((raw: HooksOptions) =>
      run(raw, (context) => status(context), { configFiles: false }),
    ),
  );
  program.addCommand(hooks);
};

export function homeFolder(context: CommandContext): string {
  const home = context.terminal.env['HOME'] ?? context.terminal.env['USERPROFILE'];
  return home !== undefined && home !== '' ? home : os.homedir();
}

function targets(target: string | undefined): AgentHookTarget[] {
  return target === undefined || target === 'all' ? [...AGENT_HOOK_TARGETS] : [target as AgentHookTarget];
}

export function runnerCommand(context: CommandContext, runner: string | undefined): AgentHookCommand {
  if (runner !== undefined) {
    const scriptPath = path.resolve(context.terminal.cwd, runner);
    if (!existsSync(scriptPath)) throw new UsageError(`--runner ${JSON.stringify(runner)} does not exist (resolved to ${scriptPath}); give the path of hook-runner.cjs.`);
    return { nodePath: process.execPath, scriptPath, installedBy: 'graphiti-harness' };
  }
  const bundled = hookRunnerFile();
  if (existsSync(bundled)) return { nodePath: process.execPath, scriptPath: bundled, installedBy: 'graphiti-harness' };
  // Not built yet: the harness binary itself runs `hook` (slower to start, same code path).
  return { nodePath: process.execPath, scriptPath: harnessBinary(), leadingArguments: ['hook'], installedBy: 'graphiti-harness' };
}

async function install(context: CommandContext, raw: HooksOptions): Promise<ExitCode> {
  const { options, output, terminal } = context;
  const existing = await readConfigFile(userConfigPath(terminal.env));
  if (!existing.ok) throw new UsageError(`the user config is invalid: ${existing.problems.join('; ')}. Fix the key or line it names (keep the file: it holds your user key and consent), then run the command again.`);
  const endpoint = normaliseEndpoint(options.endpoint ?? existing.values.endpoint ?? '');
  if (endpoint === undefined || endpoint === '') {
    throw new UsageError('hooks install needs --endpoint URL (the Graphiti the hooks send to); the in-process emulator ends with the command.');
  }
  // The check `health` runs: a typo in the URL must not pass as "installed". Installing anyway is
  // allowed (a Graphiti that starts later), but the warning cannot be missed.
  const probe = await probeUrl(context, endpoint);
  const warnings = probe.ok ? [] : [endpointWarning(endpoint, probe)];
  const { command, connected } = await connectHooks(context, { endpoint, targets: targets(raw.target), runner: raw.runner, raw });
  const { configFile, changes, endpointChange } = connected;
  const keyFile = connected.keyFile;
  const runner = connected.runner?.entry ?? command.scriptPath;
  output.result({ ok: true, endpoint, configFile, keyFile: keyFile ?? null, runner, changes, moved: endpointChange.moved, kept: endpointChange.kept, probe: probeJson(probe), warnings });
  for (const change of changes) {
    output.line(`${change.target}: ${change.changed ? 'installed in' : 'already installed in'} ${change.file}${change.backup === undefined ? '' : ` (previous file kept as ${change.backup})`}`);
    for (const line of trustLines(change)) {
      if (line.warn) output.warn(line.text);
      else output.line(line.text);
    }
  }
  output.line(`consent and options stored in ${configFile}: prompts (for recall) and these sessions' transcripts go to ${endpoint}`);
  if (keyFile !== undefined) output.line(`API key stored in ${keyFile} (mode 0600)`);
  output.line(`hooks run ${runner}`);
  for (const warning of warnings) output.warn(warning);
  for (const line of endpointChangeLines(endpointChange)) output.line(line);
  return ExitCode.ok;
}

/**
 * Consent for `endpoint`, the options, the key file and the hook entries of `targets`, through the
 * one way every tool connects agents: what `hooks install` and `setup` both do.
 */
export async function connectHooks(
  context: CommandContext,
  request: { readonly endpoint: string; readonly targets: readonly AgentHookTarget[]; readonly runner: string | undefined; readonly raw: RawCommonOptions },
): Promise<{ readonly command: AgentHookCommand; readonly connected: AgentsConnected }> {
  const { options, terminal } = context;
  const command = runnerCommand(context, request.runner);
  try {
    const connected = await connectAgents({
      env: terminal.env,
      home: homeFolder(context),
      targets: request.targets,
      command,
      // The bundled runner is copied out of this installation, so moving or removing it breaks no prompt.
      ...(request.runner === undefined && command.leadingArguments === undefined ? { runnerVersion: harnessPackage().version } : {}),
      endpoint: request.endpoint,
      by: 'graphiti-harness',
      config: {
        ...(options.stateDirGiven ? { stateDir: options.stateDir } : {}),
        ...(options.scopes?.kind === 'list' ? { scopes: options.scopes.scopes } : {}),
        ...(request.raw.timeoutMs !== undefined ? { recall: { timeoutMs: options.timeoutMs } } : {}),
      },
      ...(request.raw.apiKey === undefined ? {} : { apiKey: request.raw.apiKey }),
      stateDirectory: await stateFolder(context),
    });
    return { command, connected };
  } catch (error) {
    throw new HarnessError(error instanceof Error ? error.message : String(error), { hint: 'Nothing was changed in the file named.' });
  }
}

/** The loud line `hooks install` prints when the endpoint is not a working Graphiti now. */
export function endpointWarning(endpoint: string, probe: EndpointProbe): string {
  const what = probe.reachable ? probeSummary(probe) : probe.failure.message;
  return `${endpoint} is not a working Graphiti right now — ${what} The hooks were installed anyway and will send there once it answers; if the URL is wrong (http vs https, the port), run hooks install again with the right --endpoint. graphiti-harness health --endpoint ${endpoint} checks it.`;
}

export function probeJson(probe: EndpointProbe): Record<string, unknown> {
  return probe.reachable
    ? { reachable: true, ok: probe.ok, server: probe.face.kind, status: probe.status, checks: probe.checks, warnings: probe.warnings }
    : { reachable: false, ok: false, problem: probe.failure.message, ...probe.failure.details };
}

async function uninstall(context: CommandContext, raw: HooksOptions): Promise<ExitCode> {
  const { output, terminal } = context;
  const { changes, consentRevoked, revokedEndpoints, stopped, configFile, removedRunners, mcpClients } = await disconnectAgents({
    env: terminal.env,
    home: homeFolder(context),
    targets: targets(raw.target),
    by: 'graphiti-harness',
    endpoints: context.options.endpoint === undefined ? [] : [context.options.endpoint],
    stateDirectory: await stateFolder(context),
  });
  output.result({ ok: true, changes, consentRevoked, revokedEndpoints, stopped, removedRunners, mcpClients });
  for (const change of changes) {
    output.line(`${change.target}: ${change.changed ? 'removed from' : 'nothing to remove in'} ${change.file}`);
    if (change.trust?.manualStep !== undefined) output.warn(`${change.target}: ${change.trust.manualStep}`);
    else if (change.trust?.changed === true) output.line(`${change.target}: removed the trust of our hooks from ${change.trust.file}`);
  }
  for (const folder of removedRunners) output.line(`removed the hook runner copy ${folder}`);
  if (consentRevoked) output.line(`consent revoked in ${configFile}: hooks no longer send anything`);
  else if (mcpClients.length > 0) {
    output.line(`consent kept in ${configFile}: our MCP server still runs in ${mcpClients.join(', ')} (graphiti-harness mcp uninstall --target … removes it, and the consent with the last one)`);
  }
  if (stopped.servers > 0 || stopped.drainer) output.line(`stopped ${stopped.servers} hook server(s)${stopped.drainer ? ' and the background drainer (queued messages stay on disk, unsent)' : ''}`);
  return ExitCode.ok;
}

/** What an install did about the assistant's trust step (Codex runs untrusted hooks never, and says nothing). */
export function trustLines(change: AgentHookChange): Array<{ readonly text: string; readonly warn: boolean }> {
  const trust = change.trust;
  if (trust === undefined) return [];
  if (trust.manualStep !== undefined) return [{ text: `${change.target}: the hooks will not run until trusted: ${trust.manualStep}`, warn: true }];
  return [{ text: `${change.target}: ${trust.changed ? 'trusted our hooks in' : 'our hooks already trusted in'} ${trust.file}`, warn: false }];
}

/** What the user switched off (in any tool) that hooks honour, one line each. */
function switchLines(switches: MemorySwitchesRead, file: string): string[] {
  if (!switches.ok) return [`memory switches: ${switches.problem} — hooks stay silent until then`];
  const { everywhere, workspaces, endpoints } = switches.switches;
  const lines: string[] = [];
  if (everywhere.off !== undefined) lines.push(`memory switched off everywhere (by ${everywhere.off.by}, ${everywhere.off.at})`);
  for (const [folder, marks] of Object.entries(workspaces)) {
    for (const [name, mark] of Object.entries(marks)) lines.push(`workspace ${folder}: ${name} (by ${mark.by}, ${mark.at})`);
  }
  for (const [endpoint, marks] of Object.entries(endpoints)) if (marks.revoked !== undefined) lines.push(`endpoint ${endpoint}: consent revoked (by ${marks.revoked.by}, ${marks.revoked.at}); hooks install clears it`);
  return lines.length === 0 ? [] : [`memory switches (${file}), honoured by every hook:`, ...lines.map((line) => `  ${line}`)];
}

/** The folder the hooks use: --state-dir, else GRAPHITI_MEMORY_STATE_DIR or the config's stateDir, else the default. */
export function stateFolder(context: CommandContext): Promise<string> {
  const { options, terminal } = context;
  return options.stateDirGiven ? Promise.resolve(options.stateDir) : sharedStateDirectory(terminal.env, terminal.cwd);
}

async function status(context: CommandContext): Promise<ExitCode> {
  const { output, terminal } = context;
  const home = homeFolder(context);
  const configFile = userConfigPath(terminal.env);
  const [installed, mcp, config, salvaged] = await Promise.all([
    agentHooksStatus(home, terminal.env),
    mcpServersStatus({ home, env: terminal.env }),
    readConfigFile(configFile),
    readConfigFile(configFile, 'project'),
  ]);
  // A file with a typo still holds its endpoint and consent: shown as they are, beside the problem.
  const values = config.ok ? config.values : salvaged.ok ? salvaged.values : undefined;
  const stateDir = await stateFolder(context);
  // The server shown is the one of the runner `install` writes into hook files (this harness's
  // build); servers of other builds (the extension's runner copy, say) are listed beside it.
  const build = runnerBuild(hookRunnerFile());
  const switchesFile = FileMemorySwitches.inStateFolder(stateDir);
  const [runs, server, servers, switches] = await Promise.all([readHookRuns(stateDir, 10), hookServerStatus(terminal.env, build), runningHookServers(terminal.env), switchesFile.read()]);
  const otherServers = servers.filter((running) => running.build !== build);
  // What the workspace's project file could not widen (not trusted): the hooks ignore it too.
  const resolution = await resolveMemoryConfig({ workspaceFolder: context.options.workspace, env: terminal.env });
  const ignored = resolution.ok ? resolution.config.ignored : [];
  // Dead letters and long-waiting messages of the configured endpoint's outbox (counts only).
  const endpoint = typeof values?.endpoint === 'string' && values.endpoint !== '' ? normaliseEndpoint(values.endpoint) : undefined;
  const maxAgeHours = resolution.ok ? resolution.config.settings?.maxAgeHours : undefined;
  const delivery = endpoint === undefined ? undefined : await endpointDeliveryNotice(stateDir, endpoint, maxAgeHours === undefined ? {} : { maxAgeHours });
  output.result({
    ok: true,
    installed,
    mcp: mcp.map(({ target, file, installed: has, command, problem }) => ({ target, file, installed: has, command: command ?? null, problem: problem ?? null })),
    config: { file: configFile, enabled: values?.enabled ?? false, endpoint: values?.endpoint ?? null, consent: values?.consent ?? null, problems: config.ok ? [] : config.problems },
    stateDir,
    switches: switches.ok ? switches.switches : { problem: switches.problem },
    server,
    otherServers,
    ignored,
    deadLetters: delivery?.deadLetters ?? 0,
    waiting: delivery?.waiting ?? 0,
    runs,
  });
  for (const entry of installed) {
    const events = entry.entries.map((hook) => hook.event).join(', ');
    output.line(`${entry.target}: ${entry.entries.length === 0 ? 'not installed' : `installed (${events})`} — ${entry.file}${entry.problem === undefined ? '' : ` (${entry.problem})`}`);
    if (entry.trust !== undefined) output.line(`  ${entry.trust.trusted ? 'runs them' : 'will not run them'}: ${entry.trust.detail}`);
  }
  const mcpInstalled = mcp.filter((client) => client.installed);
  output.line(`MCP server (graphiti-harness mcp): ${mcpInstalled.length === 0 ? 'in no client' : `in ${mcpInstalled.map((client) => `${client.label} (${client.file})`).join(', ')}`}`);
  for (const client of mcp.filter((each) => each.problem !== undefined)) output.line(`  ${client.label}: ${client.file} cannot be read: ${client.problem}`);
  if (!config.ok) output.line(`config: ${configFile} — has a problem, so the hooks stay silent (memory off) until it is fixed: ${config.problems.join('; ')}`);
  else output.line(`config: ${configFile} — ${values?.enabled === true ? 'enabled' : 'disabled'}, endpoint ${values?.endpoint ?? '(none)'}, consent ${values?.consent === undefined ? 'none' : `for ${values.consent.endpoint} since ${values.consent.grantedAt}`}`);
  for (const line of switchLines(switches, switchesFile.filePath)) output.line(line);
  if (delivery !== undefined) output.line(delivery.line === undefined ? `delivery: nothing waits long, no dead letters (${endpoint})` : `delivery: ${delivery.line}`);
  for (const line of resolution.ok ? ignoredLines(resolution.config) : []) output.line(`project file: ${line}`);
  output.line(
    server.running
      ? `hook server: running (pid ${server.pid}, since ${server.since}, build ${server.build}${openSessionsNote(server.openSessions)}) — ${server.socket}`
      : `hook server: ${server.reason}${server.socket === null ? '' : ` — ${server.socket}`}`,
  );
  if (server.running && server.storageFault !== undefined) {
    output.line(`hook server: a ${server.storageFault.event} at ${server.storageFault.at} could not write: ${server.storageFault.message}`);
  }
  for (const other of otherServers) output.line(`hook server of another runner build: running (pid ${other.pid}, since ${other.since}, build ${other.build}) — ${other.socket}`);
  output.line(runs.length === 0 ? `no hook runs yet (log: ${stateDir})` : 'last hook runs:');
  for (const hookRun of runs) {
    // A failure's reason (an error class, a named disk fault; never content) follows its run.
    const reason = hookRun.outcome === 'failed' && hookRun.detail !== undefined ? `  ${hookRun.detail}` : '';
    output.line(`  ${hookRun.time}  ${hookRun.event.padEnd(16)} ${hookRun.outcome.padEnd(14)} ${String(hookRun.ms).padStart(5)} ms${reason}`);
  }
  return ExitCode.ok;
}

/** Why a server stays through idle whiles: the open agent sessions it serves. */
function openSessionsNote(openSessions: number | undefined): string {
  if (openSessions === undefined || openSessions === 0) return '';
  return `, kept warm for ${openSessions} open agent session${openSessions === 1 ? '' : 's'}`;
}
