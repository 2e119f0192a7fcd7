// `graphiti-harness config show [--json]`: the configuration every command runs with — each value,
// where it came from (a flag, a variable, the project file, the user file, the default), the files
// read and their problems. Reads files only; it never contacts an endpoint.
import fs from 'node:fs';
import { API_KEY_VARIABLE, apiKeyFilePath, configurationEntries, configurationLines, readApiKey, type ConfigEntry } from '@graphiti-memory/memory-node-storage';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { resolveConfiguration } from '../cli/config-defaults.js';
import { ExitCode } from '../cli/harness-errors.js';
import type { CommandRegistrar } from './command-registrar.js';

export const PRECEDENCE = 'flags > env > project .graphiti-memory.json > user config.json > defaults';

export const registerConfigCommand: CommandRegistrar = (program, run) => {
  const config = new Command('config').description('the configuration every tool reads, and where each value comes from');
  config.addCommand(
    addCommonOptions(
      new Command('show')
        .description(`every effective value and its origin (${PRECEDENCE})`)
        .addHelpText(
          'after',
          [
            '',
            'Files: the user config.json (in your config folder; GRAPHITI_MEMORY_CONFIG_DIR moves it) and the nearest',
            '.graphiti-memory.json from --workspace up. Variables: GRAPHITI_MEMORY_ENABLED, _ENDPOINT, _SERVER, _SCOPES, _STATE_DIR.',
            'Flags that are values: --endpoint, --server, --timeout-ms, --max-attempts, --state-dir (--scopes picks one command\'s scopes).',
            '',
            'Examples:',
            '  graphiti-harness config show',
            '  graphiti-harness config show --workspace ../other-repo --json',
          ].join('\n'),
        ),
      // Run without the config layer: a broken file is what this command must show, not fail on.
    ).action((raw: RawCommonOptions) => run(raw, (context) => show(context, raw), { configFiles: false })),
  );
  program.addCommand(config);
};

interface FileReport {
  readonly path: string | null;
  readonly exists: boolean;
}

async function show(context: CommandContext, raw: RawCommonOptions): Promise<ExitCode> {
  const { output, terminal } = context;
  const resolution = await resolveConfiguration(raw, { cwd: terminal.cwd, env: terminal.env });
  const key = await readApiKey(terminal.env);
  const apiKey = !key.ok
    ? { source: 'refused', problem: key.problem }
    : { source: key.source, ...(key.source === 'file' ? { file: apiKeyFilePath(terminal.env) } : key.source === 'env' ? { variable: API_KEY_VARIABLE } : {}) };
  if (!resolution.ok) {
    output.result({ ok: false, precedence: PRECEDENCE, problems: resolution.problems, apiKey });
    output.error('the configuration is invalid; no command runs until it is fixed:');
    for (const problem of resolution.problems) output.line(`  ${problem}`);
    output.line('Fix or remove each value named above, then run `graphiti-harness config show` again.');
    return ExitCode.failure;
  }
  const { config } = resolution;
  const files: { user: FileReport; project: FileReport } = {
    user: { path: config.files.user, exists: fs.existsSync(config.files.user) },
    project: { path: config.files.project ?? null, exists: config.files.project !== undefined },
  };
  const values: ConfigEntry[] = configurationEntries(config);
  output.result({ ok: true, precedence: PRECEDENCE, files, values, apiKey, problems: [] });
  output.heading(`Graphiti Memory configuration (${PRECEDENCE})`);
  output.line(`user file:    ${config.files.user}${files.user.exists ? '' : ' (not found)'}`);
  output.line(`project file: ${config.files.project ?? `none found from ${context.options.workspace} up`}`);
  output.line(
    `API key:      ${!key.ok ? `refused: ${key.problem}` : key.source === 'env' ? `from ${API_KEY_VARIABLE}` : key.source === 'file' ? `from ${apiKeyFilePath(terminal.env)}` : 'none'}`,
  );
  output.line();
  for (const line of configurationLines(config)) output.line(line);
  return ExitCode.ok;
}
