// `graphiti-harness config show [--json]`: the configuration every command runs with — each value,
// where it came from (a flag, a variable, the project file, the user file, the default), the files
// read and their problems, and what of the project file was ignored. `config trust [PATH]` /
// `config untrust [PATH]`: whether a project file may widen what is sent (trust lapses when it
// changes). Reads and writes files only; never contacts an endpoint.
import fs from 'node:fs';
import path from 'node:path';
import {
  API_KEY_VARIABLE,
  apiKeyFilePath,
  configurationEntries,
  configurationLines,
  defaultStateDirectory,
  ignoredLines,
  PROJECT_CONFIG_FILE_NAME,
  readApiKey,
  trustProjectFile,
  untrustProjectFile,
  type ConfigEntry,
} from '@graphiti-memory/memory-node-storage';
import { describeDirectiveHandling, directiveHandling } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { resolveConfiguration } from '../cli/config-defaults.js';
import { ExitCode } from '../cli/harness-errors.js';
import type { CommandRegistrar } from './command-registrar.js';

/** What `config show` says when digests are to be written by a chat model. */
export const CHAT_MODEL_DIGEST_NOTICE =
  'capture.digestWriter chatModel: only the VS Code extension has a chat model (vscode.lm); the hooks and graphiti-harness send the filtered digest.';

/** What `config show` says when loops are to be proposed by a chat model. */
export const CHAT_MODEL_LOOPS_NOTICE =
  'loops.proposeWithModel true: only the VS Code extension has a chat model (vscode.lm); its proposals wait in pending memories, which graphiti-harness pending approves or rejects.';

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
  for (const [name, description] of [
    ['trust', 'let a project .graphiti-memory.json widen what is sent (its endpoint, enabled: true, …) until it changes'],
    ['untrust', 'withdraw that trust: the project file may again only narrow what is sent'],
  ] as const) {
    config.addCommand(
      addCommonOptions(
        new Command(name)
          .description(description)
          .argument('[path]', `the project file, or its folder (default: the ${PROJECT_CONFIG_FILE_NAME} found from --workspace)`)
          .addHelpText('after', ['', 'Examples:', `  graphiti-harness config ${name}`, `  graphiti-harness config ${name} ../other-repo/${PROJECT_CONFIG_FILE_NAME}`].join('\n')),
      ).action((file: string | undefined, raw: RawCommonOptions) => run(raw, (context) => trust(context, raw, file, name === 'trust'), { configFiles: false })),
    );
  }
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
  // What a directive in a message does, as memory-core's one rule decides it for every tool.
  const directives = directiveHandling(config.settings);
  output.result({ ok: true, precedence: PRECEDENCE, files, projectTrusted: config.projectTrusted, values, ignored: config.ignored, apiKey, directives, problems: [] });
  output.heading(`Graphiti Memory configuration (${PRECEDENCE})`);
  output.line(`user file:    ${config.files.user}${files.user.exists ? '' : ' (not found)'}`);
  const trustNote = config.files.project === undefined ? '' : config.projectTrusted ? ' (trusted)' : ' (not trusted: it may only narrow what is sent)';
  output.line(`project file: ${config.files.project ?? `none found from ${context.options.workspace} up to its repository root`}${trustNote}`);
  output.line(
    `API key:      ${!key.ok ? `refused: ${key.problem}` : key.source === 'env' ? `from ${API_KEY_VARIABLE}` : key.source === 'file' ? `from ${apiKeyFilePath(terminal.env)}` : 'none'}`,
  );
  output.line();
  for (const line of configurationLines(config)) output.line(line);
  output.line();
  output.line(`directives:   ${describeDirectiveHandling(directives)} (autoPromote.enabled ${config.settings.autoPromote.enabled}, autoPromote.review ${config.settings.autoPromote.review})`);
  if (config.settings.capture.digestWriter === 'chatModel') {
    // Only VS Code has a chat model (vscode.lm): say so rather than let the value look as if it applied here.
    output.line();
    output.line(CHAT_MODEL_DIGEST_NOTICE);
  }
  if (config.settings.loops.proposeWithModel) {
    output.line();
    output.line(CHAT_MODEL_LOOPS_NOTICE);
  }
  if (config.ignored.length > 0) {
    output.line();
    for (const line of ignoredLines(config)) output.line(line);
  }
  return ExitCode.ok;
}

async function trust(context: CommandContext, raw: RawCommonOptions, file: string | undefined, trusting: boolean): Promise<ExitCode> {
  const { output, terminal } = context;
  const resolution = await resolveConfiguration(raw, { cwd: terminal.cwd, env: terminal.env });
  if (!resolution.ok) {
    output.error(`${resolution.message}`, 'Fix the file named there, then run the command again.');
    return ExitCode.failure;
  }
  const { config } = resolution;
  const target = file === undefined ? config.files.project : projectFileAt(path.resolve(terminal.cwd, file));
  if (target === undefined) {
    output.error(`no ${PROJECT_CONFIG_FILE_NAME} found from ${context.options.workspace} up to its repository root`, 'Name the file: `graphiti-harness config trust PATH`.');
    return ExitCode.usage;
  }
  // The state folder comes from the user's own sources only (a project file cannot set it).
  const stateDirectory = config.settings.stateDir ?? defaultStateDirectory();
  if (trusting) {
    let digest: string;
    try {
      digest = await trustProjectFile(stateDirectory, target);
    } catch (error) {
      output.error((error as Error).message);
      return ExitCode.usage;
    }
    const widened = config.ignored.filter((entry) => entry.file === target && entry.key !== '*').map((entry) => entry.key);
    output.result({ ok: true, file: target, trusted: true, sha256: digest, applies: widened });
    output.line(`trusted ${target} (sha256 ${digest.slice(0, 12)}…); editing it makes the trust lapse.`);
    if (widened.length > 0) output.line(`now applied: ${widened.join(', ')}`);
    return ExitCode.ok;
  }
  const was = await untrustProjectFile(stateDirectory, target);
  output.result({ ok: true, file: target, trusted: false, wasTrusted: was });
  output.line(was ? `no longer trusted: ${target}; it may only narrow what is sent.` : `${target} was not trusted; nothing changed.`);
  return ExitCode.ok;
}

/** A folder means its project file. */
function projectFileAt(resolved: string): string {
  try {
    if (fs.statSync(resolved).isDirectory()) return path.join(resolved, PROJECT_CONFIG_FILE_NAME);
  } catch {
    // Missing: trustProjectFile names it.
  }
  return resolved;
}
