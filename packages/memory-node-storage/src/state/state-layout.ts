// The one owner of Graphiti Memory's shared state folder and its layout. The extension, every
// `graphiti-harness` command and the agent hooks keep their records here, so whatever one of them
// records (a send, a forget, a pending memory, the local tier) every other one sees. Delivery
// state (outbox, ledger, group registry, watcher offsets) is kept per endpoint: what one Graphiti
// stored says nothing about another.
import { createHash } from 'node:crypto';
import path from 'node:path';
import envPaths from 'env-paths';
import { readConfigFile, type ConfigFileRead } from '../config/config-file.js';
import { userConfigPath, type Environment } from '../config/config-paths.js';

/** Moves the state folder (tests, portable setups); the user config's `stateDir` does the same. */
export const STATE_DIRECTORY_VARIABLE = 'GRAPHITI_MEMORY_STATE_DIR';

/**
 * The default state folder: the user's data folder (`~/.local/share/graphiti-harness` on Linux).
 * The name predates the extension's use of it; it stays so existing state is found.
 */
export function defaultStateDirectory(): string {
  return envPaths('graphiti-harness', { suffix: '' }).data;
}

/** Where the state folder is set: the user's own sources only (a project file cannot move it). */
export interface StateFolderSources {
  /** `--state-dir`; relative to `cwd`. */
  readonly flag?: string | undefined;
  /** `GRAPHITI_MEMORY_STATE_DIR` (relative to `cwd`); also where the user config is found. */
  readonly env: Environment;
  /** The user config as read; its `stateDir` is relative to the folder of the file that set it. */
  readonly userConfig: ConfigFileRead;
  /** The user config's path. Default: `userConfigPath(env)`. */
  readonly userConfigFile?: string;
  /** What a relative flag or variable is relative to. Default: the process's working folder. */
  readonly cwd?: string;
}

/**
 * The state folder the user set, absolute: `--state-dir`, else `GRAPHITI_MEMORY_STATE_DIR`, else
 * the user config's `stateDir`; `undefined` when none does (the default applies). A relative path
 * is taken where it was written: a flag or variable in the working folder, the config's value
 * beside its file, so every tool finds one folder wherever it runs.
 */
export function configuredStateDirectory(sources: StateFolderSources): string | undefined {
  const cwd = sources.cwd ?? process.cwd();
  const flag = given(sources.flag);
  if (flag !== undefined) return path.resolve(cwd, flag);
  const variable = given(sources.env[STATE_DIRECTORY_VARIABLE]);
  if (variable !== undefined) return path.resolve(cwd, variable);
  const fromConfig = sources.userConfig.ok ? given(sources.userConfig.values.stateDir) : undefined;
  if (fromConfig === undefined) return undefined;
  return path.resolve(path.dirname(sources.userConfigFile ?? userConfigPath(sources.env)), fromConfig);
}

/** The state folder in force (`configuredStateDirectory`, else the default). */
export function stateDirectoryOf(sources: StateFolderSources): string {
  return configuredStateDirectory(sources) ?? defaultStateDirectory();
}

/** The state folder in force: `GRAPHITI_MEMORY_STATE_DIR`, else the user config's `stateDir`, else the default. */
export async function sharedStateDirectory(env: Environment = process.env, cwd?: string): Promise<string> {
  // Salvaged: a user file with a typo elsewhere still names its state folder.
  const userConfig = await readConfigFile(userConfigPath(env), 'project');
  return stateDirectoryOf({ env, userConfig, ...(cwd === undefined ? {} : { cwd }) });
}

function given(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/** Files and folders of the state folder that belong to no endpoint and no workspace. */
export interface SharedStateFiles {
  readonly root: string;
  /** GlobalStore: the user-scope key a tool used before the shared one existed. */
  readonly globalStore: string;
  /** Memories waiting for review, from every tool (approval sends to the endpoint in force then). */
  readonly pendingMemories: string;
  /** What left the machine, for every endpoint and every tool (metadata only). */
  readonly auditLog: string;
  /** Open loops of every workspace (`FileLoopStore`): local, each with its workspace group. */
  readonly loops: string;
  /** Lines `import-instructions` sent, by file and line content hash (`FileInstructionLedger`). */
  readonly instructionImports: string;
  /** The local tier: one file per endpoint and workspace group (`tierFile`). */
  readonly tierDirectory: string;
  /** Hook runs (`hook.log`, `runs.jsonl`), the transcript ledger, the git remote cache, the drainer lock. */
  readonly hooksDirectory: string;
  /** What the user switched off, machine-wide (`FileMemorySwitches`): read by every hook event. */
  readonly memorySwitches: string;
  /** Project config files the user trusted (`config trust`): path → sha256 of the content trusted. */
  readonly trustedProjectFiles: string;
  /** The background drainer's lock target (one drainer per state folder). */
  readonly drainerLock: string;
  /** Who holds the drainer lock (pid, since): how a revoke, an uninstall or a forget finds it to stop it. */
  readonly drainerInfo: string;
}

/** The files of one endpoint's delivery state. */
export interface EndpointStateFiles {
  /** The durable outbox's folder, for this endpoint. */
  readonly outboxDirectory: string;
  /** Where earlier versions kept the delivery ledger, imported once so an upgrade sends nothing twice. */
  readonly legacyLedgerFile: string;
  /** Transcript watcher offsets. */
  readonly watcherOffsets: string;
  /** Every group written to at this endpoint (what forget covers). */
  readonly groupRegistry: string;
  /** Every episode delivered to this endpoint, with its tool, session and day (what citations name). */
  readonly episodeSources: string;
  /** What forgets left for later (`FileForgetLedger`): groups never to send to, deletes owed, forgotten turns. */
  readonly forgetLedger: string;
  /** Which face (REST or MCP) the endpoint answered an `auto` probe with (`FileServerFaceRecord`). */
  readonly serverFace: string;
}

/** The endpoint's and the workspace's files, beside the shared ones. */
export interface StateLayout extends SharedStateFiles, EndpointStateFiles {
  /** WorkspaceStore of this workspace: consent, ownership marks. */
  readonly workspaceStore: string;
}

export function sharedStateFiles(stateDirectory: string): SharedStateFiles {
  const root = path.resolve(stateDirectory);
  return {
    root,
    globalStore: path.join(root, 'global.json'),
    pendingMemories: path.join(root, 'pending-memories.json'),
    auditLog: path.join(root, 'audit', 'audit.jsonl'),
    loops: path.join(root, 'loops.json'),
    instructionImports: path.join(root, 'instruction-imports.json'),
    tierDirectory: path.join(root, 'tier'),
    hooksDirectory: path.join(root, 'hooks'),
    memorySwitches: path.join(root, 'memory-switches.json'),
    trustedProjectFiles: path.join(root, 'trusted-project-files.json'),
    drainerLock: path.join(root, 'hooks', 'drainer'),
    drainerInfo: path.join(root, 'hooks', 'drainer.json'),
  };
}

/** The folder of one endpoint's delivery state. */
export function endpointStateDirectory(stateDirectory: string, endpoint: string): string {
  return path.join(path.resolve(stateDirectory), 'endpoints', shortHash(endpoint));
}

/** The files of one endpoint's delivery state (the extension's group registry needs no workspace). */
export function endpointStateFiles(stateDirectory: string, endpoint: string): EndpointStateFiles {
  const endpointFolder = endpointStateDirectory(stateDirectory, endpoint);
  return {
    outboxDirectory: path.join(endpointFolder, 'outbox'),
    legacyLedgerFile: path.join(endpointFolder, 'delivery-ledger.journal'),
    watcherOffsets: path.join(endpointFolder, 'watcher-offsets.json'),
    groupRegistry: path.join(endpointFolder, 'group-registry.json'),
    episodeSources: path.join(endpointFolder, 'episode-sources.json'),
    forgetLedger: path.join(endpointFolder, 'forgotten.json'),
    serverFace: path.join(endpointFolder, 'server-face.json'),
  };
}

export function stateLayout(stateDirectory: string, workspaceFolder: string, endpoint: string): StateLayout {
  const shared = sharedStateFiles(stateDirectory);
  return {
    ...shared,
    ...endpointStateFiles(stateDirectory, endpoint),
    workspaceStore: path.join(shared.root, 'workspaces', `${shortHash(workspaceFolder)}.json`),
  };
}

/** The local tier's file of a workspace group at an endpoint. */
export function tierFile(stateDirectory: string, endpoint: string, workspaceGroupId: string): string {
  const key = createHash('sha256').update(`${endpoint}\n${workspaceGroupId}`).digest('hex').slice(0, 24);
  return path.join(sharedStateFiles(stateDirectory).tierDirectory, `${key}.json`);
}

/**
 * The hooks' ledger of one transcript: the ids of the turns a Stop or SessionEnd already took from
 * it. The name hashes the resolved path, as earlier versions did, so their ledgers are still found.
 */
export function transcriptLedgerFile(stateDirectory: string, transcriptPath: string): string {
  const key = createHash('sha256').update(path.resolve(transcriptPath)).digest('hex').slice(0, 24);
  return path.join(sharedStateFiles(stateDirectory).hooksDirectory, 'transcripts', `${key}.json`);
}

function shortHash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 16);
}

/** The folder of the per-session records of what was injected (`FileSaidOnceStore`). */
export function saidOnceDirectory(stateDirectory: string): string {
  return path.join(sharedStateFiles(stateDirectory).hooksDirectory, 'sessions');
}

/** One chat session's record of what was injected at an endpoint (hashes only). */
export function saidOnceFile(stateDirectory: string, endpoint: string, sessionId: string): string {
  const key = createHash('sha256').update(`${endpoint}\n${sessionId}`).digest('hex').slice(0, 24);
  return path.join(saidOnceDirectory(stateDirectory), `${key}.json`);
}
