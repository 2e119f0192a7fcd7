// `graphiti-harness doctor`: one screen that says whether memory works here and, for each problem,
// the one next step. The checks live in src/doctor (each a small function returning
// `{ id, ok, summary, next? }`); this command reads the facts once, runs them and prints them.
// It never needs a valid configuration to run: a broken one is one of the things it reports.
import { promises as fs } from 'node:fs';
import { defaultStateDirectory, readConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { resolveConfiguration } from '../cli/config-defaults.js';
import { ExitCode } from '../cli/harness-errors.js';
import { harnessPackage } from '../cli/harness-package.js';
import { configurationCheck, consentCheck } from '../doctor/config-checks.js';
import type { DoctorCheck, DoctorFacts } from '../doctor/doctor-check.js';
import { endpointCheck } from '../doctor/endpoint-check.js';
import { assistantHooksCheck, assistantStatuses, duplicateHooksCheck, hookRunsCheck, hookServerCheck, mcpClientStatuses, mcpServerCheck, noAssistantCheck } from '../doctor/hook-checks.js';
import { outboxCheck } from '../doctor/outbox-check.js';
import { nodeVersionCheck, stateFolderCheck } from '../doctor/runtime-checks.js';
import { detectAgents } from '@graphiti-memory/agent-hooks';
import type { CommandRegistrar } from './command-registrar.js';
import { homeFolder, stateFolder } from './hooks-command.js';

export const registerDoctorCommand: CommandRegistrar = (program, run) => {
  program.addCommand(
    addCommonOptions(
      new Command('doctor')
        .description('say whether memory works here and, for each problem, the one next step (exit 0 only when everything works)')
        .addHelpText(
          'after',
          [
            '',
            'Checks: Node version; the configuration (file, key, nearest valid key); the endpoint (reachable, which face);',
            'consent and trust; each assistant\'s hooks (installed, runner present) and hooks that would run twice;',
            'the hook server; what is queued, unconfirmed and dead-lettered per endpoint; the last failing hook runs;',
            'the state folder (yours, 0700, free space). Sends nothing but the read-only health probe.',
            '',
            'Examples:',
            '  graphiti-harness doctor',
            '  graphiti-harness doctor --json',
          ].join('\n'),
        ),
    ).action((raw: RawCommonOptions) => run(raw, (context) => doctor(context, raw), { configFiles: false })),
  );
};

async function doctor(context: CommandContext, raw: RawCommonOptions): Promise<ExitCode> {
  const { output } = context;
  const facts = await readFacts(context, raw);
  const statuses = await assistantStatuses(facts);
  const detected = await detectAgents({ home: facts.home, env: facts.env });
  const mcp = await mcpClientStatuses(facts);
  const { nodeEngines } = harnessPackage();
  const checks: DoctorCheck[] = [
    nodeVersionCheck(process.version, nodeEngines),
    await stateFolderCheck(facts.stateDirectory),
    configurationCheck(facts),
    await endpointCheck(facts),
    await consentCheck(facts),
    noAssistantCheck(statuses, mcp),
    ...statuses.map((status) => assistantHooksCheck(status, detected.find((agent) => agent.target === status.target), facts.cliVersion)),
    await duplicateHooksCheck(facts, statuses),
    mcpServerCheck(mcp),
    await hookServerCheck(facts),
    await outboxCheck(facts),
    await hookRunsCheck(facts),
  ];
  const ok = checks.every((check) => check.ok);
  output.result({ ok, checks });
  const width = Math.max(...checks.map((check) => check.id.length));
  for (const check of checks) {
    const mark = check.ok ? output.colors.green('✔') : output.colors.red('✘');
    output.line(`${mark} ${check.id.padEnd(width)}  ${check.summary}`);
    if (!check.ok && check.next !== undefined) output.line(`  ${' '.repeat(width)}  ${output.colors.cyan(`→ ${check.next}`)}`);
  }
  const problems = checks.filter((check) => !check.ok).length;
  output.line();
  output.line(ok ? output.colors.green('Memory works here.') : output.colors.red(`Memory does not work here yet: ${problems} problem${problems === 1 ? '' : 's'}, each with its next step above.`));
  return ok ? ExitCode.ok : ExitCode.failure;
}

async function readFacts(context: CommandContext, raw: RawCommonOptions): Promise<DoctorFacts> {
  const { terminal, options } = context;
  const env = terminal.env;
  const userConfigFile = userConfigPath(env);
  const [configuration, userConfig] = await Promise.all([resolveConfiguration(raw, { cwd: terminal.cwd, env }), readConfigFile(userConfigFile)]);
  const configured = options.endpoint ?? (configuration.ok ? configuration.config.settings.endpoint : await lenientEndpoint(userConfigFile));
  const endpoint = configured === undefined ? undefined : normaliseEndpoint(configured) || undefined;
  let stateDirectory: string;
  try {
    stateDirectory = await stateFolder(context);
  } catch {
    stateDirectory = defaultStateDirectory();
  }
  return { context, env, home: homeFolder(context), stateDirectory, configuration, userConfig, userConfigFile, endpoint, cliVersion: harnessPackage().version };
}

/** The user config's endpoint when the file is JSON but not a valid configuration (doctor still checks it). */
async function lenientEndpoint(file: string): Promise<string | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { endpoint?: unknown };
    return typeof parsed.endpoint === 'string' && parsed.endpoint !== '' ? parsed.endpoint : undefined;
  } catch {
    return undefined;
  }
}
