// `graphiti-harness setup`: from nothing to working memory in one command. It checks the endpoint
// exactly as `health` does (and stops there unless --force), finds the assistants installed here,
// says what will be sent and that Graphiti has no authentication, connects them the way `hooks
// install` does (consent for exactly that endpoint, recall on), proves recall with one read-only
// search of the user's own group, and ends with how to check and what happens next.
import { detectAgents, AGENT_HOOK_TARGETS, endpointChangeLines, type AgentHookTarget, type DetectedAgent } from '@graphiti-memory/agent-hooks';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { readConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { Command, Option } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError, UsageError } from '../cli/harness-errors.js';
import { parseEndpoint } from '../cli/option-parsers.js';
import { openHarnessMemory } from '../composition/harness-container.js';
import { probeSummary, probeUrl, type EndpointProbe } from '../endpoint/probe-endpoint.js';
import type { Output } from '../terminal/output.js';
import type { CommandRegistrar } from './command-registrar.js';
import { connectHooks, homeFolder, probeJson } from './hooks-command.js';

interface SetupOptions extends RawCommonOptions {
  readonly target?: string;
  readonly yes?: boolean;
  readonly force?: boolean;
  readonly runner?: string;
}

const TARGET_CHOICES = [...AGENT_HOOK_TARGETS, 'all'] as const;
/** The endpoint offered at the prompt: where deploy/graphiti and upstream's compose files listen. */
export const SUGGESTED_ENDPOINT = 'http://localhost:8000';
/** The search of the round trip: fixed, so it carries nothing of the user's. */
export const SETUP_RECALL_QUERY = 'graphiti-harness setup check';

/** Said by `setup` every time, and by the README: what Graphiti cannot promise. */
export function noAuthenticationNotice(endpoint: string): string {
  return (
    `Graphiti has no authentication: anyone who can reach ${endpoint} can read and write every group on it, yours included. ` +
    'Keep it on loopback (127.0.0.1, as deploy/graphiti binds it) or behind a reverse proxy that requires a key ' +
    '(give the key with --api-key or GRAPHITI_API_KEY: it is sent as a header and stored in a 0600 file).'
  );
}

export const registerSetupCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('setup')
        .description('from nothing to working memory: check the endpoint, connect the assistants installed here, prove recall')
        .addOption(new Option('--target <target>', 'which assistants to connect (default: those found on this machine)').choices(TARGET_CHOICES))
        .option('-y, --yes', 'no questions: agree to what setup says it will send (needed without a terminal)')
        .option('--force', 'connect even when the endpoint does not answer as a working Graphiti (one that starts later)')
        .option('--runner <path>', 'the hook runner script (default: the bundled one)')
        .addHelpText(
          'after',
          [
            '',
            'Steps: the endpoint is checked exactly as `graphiti-harness health` checks it (setup stops there unless --force);',
            'each assistant is found as its descriptor says (Claude Code: ~/.claude or `claude`; Copilot in VS Code: ~/.vscode*;',
            'Codex: ~/.codex or `codex`; Gemini CLI: ~/.gemini or `gemini`; Copilot CLI: ~/.copilot or `copilot` on PATH); their hooks',
            'are installed as `hooks install` installs them; consent for exactly',
            'that endpoint is recorded and recall turned on; one search of your own user group (nothing written) proves it works.',
            '',
            'Graphiti has no authentication: anyone who can reach the server can read and write every group.',
            'Keep it on 127.0.0.1 or behind a reverse proxy that requires a key (--api-key).',
            '',
            'Examples:',
            '  graphiti-harness setup',
            '  graphiti-harness setup --endpoint http://localhost:8000 --yes',
            '  graphiti-harness setup --endpoint http://localhost:8000 --target claude --yes --json',
          ].join('\n'),
        ),
    ).action((raw: SetupOptions) => run(raw, (context) => setup(context, raw), { configFiles: false })),
  );
};

async function setup(context: CommandContext, raw: SetupOptions): Promise<ExitCode> {
  const { output, terminal } = context;
  const interactive = raw.yes !== true;
  if (interactive && terminal.stdin.isTTY !== true) {
    throw new UsageError('setup asks before it changes anything, and there is no terminal to ask on: pass --yes (with --endpoint URL) to agree to what it says it will send.');
  }
  const endpoint = await chooseEndpoint(context, interactive);
  const probedContext: CommandContext = { ...context, options: { ...context.options, endpoint } };

  output.heading(`Graphiti at ${endpoint}`);
  const probe = await probeUrl(probedContext, endpoint);
  reportProbe(output, probe);
  if (!probe.ok && raw.force !== true) {
    const failure = probe.reachable ? new HarnessError(`${endpoint} answers, but not as a working Graphiti: ${probeSummary(probe)}`) : probe.failure;
    throw new HarnessError(failure.message, {
      hint: `${failure.hint === undefined ? '' : `${failure.hint} `}Nothing was changed. Start Graphiti (deploy/graphiti in the repository) or fix the URL and run setup again; --force sets up anyway, for a Graphiti that starts later.`,
      details: { ...failure.details, step: 'probe' },
    });
  }

  output.heading('Assistants on this machine');
  const found = await detectAgents({ home: homeFolder(context), env: terminal.env });
  const targets = chosenTargets(raw.target, found);
  for (const agent of found) {
    const chosen = targets.includes(agent.target);
    const mark = chosen ? output.colors.green('✔') : output.colors.dim('–');
    output.line(`  ${mark} ${agent.name}: ${agent.found ? `found (${agent.evidence.join(', ')})` : 'not found'}${chosen ? '' : ', not connected'}`);
  }
  if (targets.length === 0) {
    throw new HarnessError('no assistant found on this machine (Claude Code: ~/.claude or `claude` on PATH; Copilot: ~/.copilot, ~/.vscode* or `copilot` on PATH); nothing was changed.', {
      hint: 'Install the assistant first, or pass --target claude|copilot|all to install its hooks anyway.',
      details: { step: 'detect' },
    });
  }
  const names = targets.map((target) => found.find((agent) => agent.target === target)?.name ?? target);

  output.heading('What will be sent');
  const sends = [
    `each prompt you type in ${names.join(' and ')}, as a search query for recall (answered within a deadline; a slow Graphiti never blocks the prompt)`,
    'each finished session, filtered (secrets redacted or refused first), as memory in groups of your own',
  ];
  for (const line of sends) output.line(`  • ${line} → ${endpoint}`);
  output.line(`  ${output.colors.yellow(noAuthenticationNotice(endpoint))}`);
  if (interactive && !(await output.confirm(`Connect ${names.join(' and ')} to ${endpoint}?`))) {
    throw new HarnessError('not connected: you did not agree; nothing was changed.', { hint: 'Run graphiti-harness setup again when you want memory on.', details: { step: 'consent' } });
  }

  output.heading('Connecting');
  const { connected } = await connectHooks(probedContext, { endpoint, targets, runner: raw.runner, raw: { ...raw, endpoint } });
  for (const change of connected.changes) {
    output.line(`  ${change.target}: ${change.changed ? 'installed in' : 'already installed in'} ${change.file}${change.backup === undefined ? '' : ` (previous file kept as ${change.backup})`}`);
  }
  output.line(`  consent recorded in ${connected.configFile} for exactly ${endpoint}; recall is on`);
  if (connected.keyFile !== undefined) output.line(`  API key stored in ${connected.keyFile} (mode 0600)`);
  // What an earlier endpoint queued and never delivered follows the new one (a typo loses nothing).
  for (const line of endpointChangeLines(connected.endpointChange)) output.line(`  ${line}`);

  output.heading('Recall round trip');
  const roundTrip = await recallRoundTrip(probedContext);
  if (roundTrip.ok) {
    output.line(`  ${output.colors.green('✔')} searched your user group for "${SETUP_RECALL_QUERY}" in ${roundTrip.elapsedMs} ms: ${roundTrip.facts} facts (nothing was written)`);
  } else {
    output.line(`  ${output.colors.red('✘')} ${roundTrip.problem}`);
  }

  const next = [
    'graphiti-harness doctor — says whether memory works here, and the next step when it does not',
    `start a new ${names.join(' or ')} session (reload VS Code for Copilot): prompts get what memory recalls; finished sessions are sent as memory`,
    'graphiti-harness hooks status — the last hook runs; graphiti-harness forget — removes what was sent; graphiti-harness hooks uninstall — disconnects',
  ];
  const ok = roundTrip.ok;
  output.result({
    ok,
    endpoint,
    probe: probeJson(probe),
    forced: raw.force === true && !probe.ok,
    assistants: found,
    targets,
    changes: connected.changes,
    configFile: connected.configFile,
    keyFile: connected.keyFile ?? null,
    moved: connected.endpointChange.moved,
    kept: connected.endpointChange.kept,
    consent: { endpoint, sends },
    recall: roundTrip,
    authentication: noAuthenticationNotice(endpoint),
    next,
  });
  output.heading(ok ? 'Memory is on' : 'Connected, but memory does not work yet');
  if (!ok) output.line(`  The hooks are installed and send to ${endpoint} once it answers as Graphiti.`);
  output.line(`  Check:  ${next[0]}`);
  output.line(`  Next:   ${next[1]}`);
  output.line(`          ${next[2]}`);
  return ok ? ExitCode.ok : ExitCode.failure;
}

/** `--endpoint`, else asked for (interactive), else the configured one with --yes; normalised. */
async function chooseEndpoint(context: CommandContext, interactive: boolean): Promise<string> {
  const { options, output, terminal } = context;
  let given = options.endpoint;
  if (given === undefined) {
    const existing = await readConfigFile(userConfigPath(terminal.env));
    const configured = existing.ok ? existing.values.endpoint : undefined;
    if (interactive) given = parseEndpoint(await output.ask('Graphiti endpoint URL:', configured ?? SUGGESTED_ENDPOINT));
    else if (configured !== undefined) given = configured;
    else throw new UsageError('setup --yes needs --endpoint URL (the Graphiti to connect, e.g. http://localhost:8000).');
  }
  const endpoint = normaliseEndpoint(given);
  if (endpoint === undefined || endpoint === '') throw new UsageError(`--endpoint ${JSON.stringify(given)} is not a URL; give one such as ${SUGGESTED_ENDPOINT}.`);
  return endpoint;
}

function chosenTargets(target: string | undefined, found: readonly DetectedAgent[]): AgentHookTarget[] {
  if (target === 'all') return [...AGENT_HOOK_TARGETS];
  if (target !== undefined) return [target as AgentHookTarget];
  return found.filter((agent) => agent.found).map((agent) => agent.target);
}

function reportProbe(output: Output, probe: EndpointProbe): void {
  if (!probe.reachable) {
    output.line(`  ${output.colors.red('✘')} ${probe.failure.message}`);
    return;
  }
  for (const check of probe.checks) {
    output.line(`  ${check.ok ? output.colors.green('✔') : output.colors.red('✘')} ${check.name.padEnd(12)} ${String(check.latencyMs).padStart(5)} ms  ${check.detail ?? ''}`);
  }
  for (const warning of probe.warnings) output.warn(warning);
}

export type RecallRoundTrip =
  | { readonly ok: true; readonly scope: 'user'; readonly query: string; readonly elapsedMs: number; readonly facts: number }
  | { readonly ok: false; readonly scope: 'user'; readonly query: string; readonly problem: string };

/** One search of the user's own group with a fixed query, as recall runs it; nothing is written to Graphiti. */
async function recallRoundTrip(context: CommandContext): Promise<RecallRoundTrip> {
  const base = { scope: 'user', query: SETUP_RECALL_QUERY } as const;
  try {
    const memory = await openHarnessMemory(context, { maxFacts: 3, needs: {} });
    const result = await memory.recall.recall(SETUP_RECALL_QUERY, { scopes: ['user'], maxFacts: 3, timeoutMs: context.options.timeoutMs });
    if (!result.scopes.includes('user')) return { ...base, ok: false, problem: 'the user scope could not be searched (no user key)' };
    const error = result.errors.find((each) => each.scope === 'user');
    if (error !== undefined) return { ...base, ok: false, problem: `the search failed: ${error.errorClass}` };
    if (result.timedOut) return { ...base, ok: false, problem: `the search did not answer within ${context.options.timeoutMs} ms` };
    return { ...base, ok: true, elapsedMs: result.elapsedMs, facts: result.facts.length };
  } catch (error) {
    return { ...base, ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
}
