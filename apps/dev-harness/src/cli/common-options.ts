// The options every command takes, declared once and resolved once, so `--json` or `--endpoint`
// mean the same thing on every command.
import fs from 'node:fs';
import path from 'node:path';
import { GRAPHITI_SERVER_CHOICES, type GraphitiServerChoice } from '@graphiti-memory/graphiti-client';
import { defaultStateDirectory } from '@graphiti-memory/memory-node-storage';
import { Option, type Command } from 'commander';
import { UsageError } from './harness-errors.js';
import { parseEndpoint, parseIdentifier, parseInteger, parseScopeSelection, type ScopeSelection } from './option-parsers.js';

/** Options as commander hands them over: raw strings, validated by `resolveCommonOptions`. */
export interface RawCommonOptions {
  readonly endpoint?: string;
  readonly server?: string;
  readonly apiKey?: string;
  readonly stateDir?: string;
  readonly workspace?: string;
  readonly session?: string;
  readonly scopes?: string;
  readonly timeoutMs?: string;
  readonly maxAttempts?: string;
  readonly json?: boolean;
  readonly color?: boolean;
}

export interface CommonOptions {
  /** The Graphiti base URL, given or configured; `undefined` = none (only demo, bench and smoke then start the in-process emulator). */
  readonly endpoint: string | undefined;
  /** Which face of Graphiti the endpoint is: `auto` probes it (and without --endpoint, `mcp` starts the emulator's MCP face). */
  readonly server: GraphitiServerChoice;
  readonly apiKey: string | undefined;
  /** Absolute. */
  readonly stateDir: string;
  /** Whether `--state-dir` was given (the demo uses a temporary folder otherwise). */
  readonly stateDirGiven: boolean;
  /** Absolute path of an existing folder. */
  readonly workspace: string;
  readonly session: string | undefined;
  readonly scopes: ScopeSelection | undefined;
  /** Per-request timeout to Graphiti, and the recall deadline. */
  readonly timeoutMs: number;
  /** Sends of one message before it becomes a dead letter; `undefined` = the setting's default (8). */
  readonly maxAttempts: number | undefined;
  readonly json: boolean;
  /** `false` with `--no-color`; otherwise decided by the terminal. */
  readonly colorAllowed: boolean;
}

export const DEFAULT_TIMEOUT_MS = 5_000;
export const API_KEY_ENVIRONMENT_VARIABLE = 'GRAPHITI_API_KEY';
/** memory-core's bounds of `timeoutMs` (SETTING_BOUNDS): the flag is checked as the config value is. */
export const TIMEOUT_BOUNDS = { min: 100, max: 120_000 };
/** memory-core's `maxAttempts` default and bounds (SETTING_BOUNDS). */
export const DEFAULT_MAX_ATTEMPTS = 8;
export const MAX_ATTEMPTS_BOUNDS = { min: 1, max: 1000 };


/**
 * Where `--help` puts the endpoint in force (flag aside): filled in only when help is shown (see
 * program.ts), so no command reads configuration just to declare its options.
 */
export const CONFIGURED_ENDPOINT_MARK = '\u0000configured-endpoint\u0000';

/**
 * What a command does without `--endpoint`: `configured` (most commands: the configured endpoint,
 * else it stops and names `setup`), `configured-else-emulator` (`smoke`), `emulator` (`demo`,
 * `bench`: the in-process emulator, whatever is configured).
 */
export type EndpointDefault = 'configured' | 'configured-else-emulator' | 'emulator';

const ENDPOINT_HELP: Readonly<Record<EndpointDefault, string>> = {
  configured: `Graphiti base URL (default: the configured endpoint${CONFIGURED_ENDPOINT_MARK}; with none the command stops: run graphiti-harness setup)`,
  'configured-else-emulator': `Graphiti base URL (default: the configured endpoint${CONFIGURED_ENDPOINT_MARK}; with none an in-process EMULATOR, not Graphiti)`,
  emulator: 'Graphiti base URL (default: an in-process EMULATOR, not Graphiti; the configured endpoint is not used)',
};

/** Adds the common options to a command (each command lists them in its own `--help`). */
export function addCommonOptions(command: Command, endpointDefault: EndpointDefault = 'configured'): Command {
  return command
    .addOption(new Option('--endpoint <url>', ENDPOINT_HELP[endpointDefault]).helpGroup('Common options:'))
    .addOption(
      new Option('--server <kind>', 'which Graphiti server the endpoint is: auto (probe it), rest or mcp (default auto)').helpGroup(
        'Common options:',
      ),
    )
    .addOption(
      new Option('--api-key <key>', `API key sent to the endpoint (default: $${API_KEY_ENVIRONMENT_VARIABLE})`).helpGroup('Common options:'),
    )
    .addOption(new Option('--state-dir <dir>', 'durable outbox and stores (default: the config\'s stateDir, else your user data folder)').helpGroup('Common options:'))
    .addOption(new Option('--workspace <path>', 'the workspace folder memory belongs to (default: the current folder)').helpGroup('Common options:'))
    .addOption(new Option('--session <id>', 'chat session id of the session scope').helpGroup('Common options:'))
    .addOption(
      new Option('--scopes <list>', "this command's scopes: session,workspace,user,team,mirror (or auto / all for recall; captured turns never go to user or team; mirror: the structured mirror, searched only when named); default: the config's scopes / recall.scopes").helpGroup(
        'Common options:',
      ),
    )
    .addOption(new Option('--timeout-ms <ms>', `per-request timeout (default ${DEFAULT_TIMEOUT_MS})`).helpGroup('Common options:'))
    .addOption(
      new Option('--max-attempts <n>', `sends of one message before it becomes a dead letter (default ${DEFAULT_MAX_ATTEMPTS})`).helpGroup('Common options:'),
    )
    .addOption(new Option('--json', 'print one JSON object on stdout').helpGroup('Common options:'))
    .addOption(new Option('--no-color', 'no colours, even on a terminal').helpGroup('Common options:'));
}

export interface ResolveEnvironment {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Overrides the user data folder (tests). */
  readonly defaultStateDir?: string;
}

/** Validates raw options; throws UsageError (exit 2) naming the option and the fix. */
export function resolveCommonOptions(raw: RawCommonOptions, environment: ResolveEnvironment): CommonOptions {
  const endpoint = raw.endpoint === undefined ? undefined : parseEndpoint(raw.endpoint);
  const apiKeyFromEnvironment = environment.env[API_KEY_ENVIRONMENT_VARIABLE];
  const apiKey = raw.apiKey ?? (apiKeyFromEnvironment !== undefined && apiKeyFromEnvironment !== '' ? apiKeyFromEnvironment : undefined);
  if (apiKey !== undefined && (apiKey.trim() === '' || /[\r\n]/.test(apiKey))) {
    throw new UsageError('--api-key is empty or contains a line break; pass the key exactly as issued.');
  }
  const workspace = path.resolve(environment.cwd, raw.workspace ?? '.');
  if (raw.workspace !== undefined && !isDirectory(workspace)) {
    throw new UsageError(`--workspace ${JSON.stringify(raw.workspace)} is not a folder (resolved to ${workspace}); give an existing folder.`);
  }
  if (raw.stateDir !== undefined && raw.stateDir.trim() === '') throw new UsageError('--state-dir is empty; give a folder path.');
  const stateDir = path.resolve(environment.cwd, raw.stateDir ?? environment.defaultStateDir ?? defaultStateDirectory());
  if (raw.stateDir !== undefined && fs.existsSync(stateDir) && !isDirectory(stateDir)) {
    throw new UsageError(`--state-dir ${JSON.stringify(raw.stateDir)} exists and is not a folder; give a folder path.`);
  }
  const server = raw.server ?? 'auto';
  if (!(GRAPHITI_SERVER_CHOICES as readonly string[]).includes(server)) {
    throw new UsageError(`--server ${JSON.stringify(raw.server)} is not a server kind; use auto, rest or mcp.`);
  }
  return {
    endpoint,
    server: server as GraphitiServerChoice,
    apiKey,
    stateDir,
    stateDirGiven: raw.stateDir !== undefined,
    workspace,
    session: raw.session === undefined ? undefined : parseIdentifier(raw.session, '--session'),
    scopes: raw.scopes === undefined ? undefined : parseScopeSelection(raw.scopes),
    timeoutMs: raw.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : parseInteger(raw.timeoutMs, '--timeout-ms', TIMEOUT_BOUNDS),
    maxAttempts: raw.maxAttempts === undefined ? undefined : parseInteger(raw.maxAttempts, '--max-attempts', MAX_ATTEMPTS_BOUNDS),
    json: raw.json === true,
    colorAllowed: raw.color !== false,
  };
}

function isDirectory(candidate: string): boolean {
  try {
    return fs.statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}
