// Everything a hook run needs before it may touch the network: the event, the merged config,
// consent for exactly the configured endpoint, no memory switch that closes this workspace or
// endpoint (what the user switched off in any tool: memory-switches.json), the API key and the
// user key. A project file's keys that would widen what is sent are ignored unless trusted (logged once). Each miss is an outcome (logged, nothing printed), never an exception.
import os from 'node:os';
import path from 'node:path';
import { assistantDescriptor, DEFAULT_ASSISTANT } from '../assistants/assistant-registry.js';
import { closedBySwitches, ensureUserKey, FileMemorySwitches, readApiKey, readConfigFile, resolveMemoryConfig, stateDirectoryOf, stateFolderRefusal, userConfigPath, type Environment, type ResolvedMemoryConfig } from '@graphiti-memory/memory-node-storage';
import { configNoticeText } from './config-notice.js';
import { eventWorkspace } from './event-workspace.js';
import { logIgnoredProjectKeysOnce } from './hook-log.js';
import { MAX_HOOK_INPUT_BYTES, parseHookInput, type HookEvent } from './hook-input.js';
import type { HookOptions } from './hook-options.js';

export interface HookContext {
  readonly hook: HookEvent;
  readonly config: ResolvedMemoryConfig;
  readonly endpoint: string;
  readonly apiKey: string | undefined;
  readonly userKey: string;
  readonly stateDirectory: string;
  readonly workspaceFolder: string;
}

export type HookContextResult =
  | { readonly ok: true; readonly context: HookContext }
  | {
      readonly ok: false;
      readonly outcome: string;
      readonly detail?: string;
      readonly stateDirectory: string;
      readonly event: string;
      /** A problem the user must fix for memory to work here (told once per session: config-notice.ts), and the session it is told in. */
      readonly userNotice?: { readonly text: string; readonly sessionId: string | undefined };
    };

export async function resolveHookContext(stdinText: string, options: HookOptions, env: Environment, cwd: string): Promise<HookContextResult> {
  const input = parseHookInput(stdinText, options.event, options.agent);
  // The state folder, known before the configuration (a failed run is logged there too): the
  // resolved configuration's `stateDir` is the same folder, from the same sources by the same rule.
  // Salvaged: a user file with a typo still names its state folder (the run and its notice are kept there).
  const userConfig = await readConfigFile(userConfigPath(env), 'project');
  const stateDirectory = stateDirectoryOf({ flag: options.flags.stateDir, env, userConfig, cwd });
  // A state folder that is not ours (another user's, a link): nothing is read or written there.
  const refusal = await stateFolderRefusal(stateDirectory);
  if (refusal !== undefined) return { ok: false, outcome: 'state-folder-refused', detail: refusal.message.slice(0, 500), stateDirectory, event: input.ok ? input.hook.event : (options.event ?? 'unknown') };
  if (!input.ok) {
    // Too large is said as such (the host sent more than a hook reads), not as malformed input.
    if (input.reason === 'prompt-too-large') {
      return { ok: false, outcome: 'prompt-too-large', detail: `prompt too large: the hook input is over ${MAX_HOOK_INPUT_BYTES / 1024 / 1024} MB; nothing was read or sent`, stateDirectory, event: options.event ?? 'unknown' };
    }
    return { ok: false, outcome: 'bad-input', detail: input.reason, stateDirectory, event: options.event ?? 'unknown' };
  }
  const hook = withTranscriptPath(input.hook, env);
  const workspaceFolder = options.workspace !== undefined ? path.resolve(cwd, options.workspace) : await eventWorkspace(hook.cwd, hook.transcriptPath, cwd);
  // The drainer serves every project's queued turns: it runs with the user's configuration alone,
  // whatever repository's event started it (a project file cannot close or reshape it).
  const resolution = await resolveMemoryConfig({ workspaceFolder: options.drain ? undefined : workspaceFolder, env, flags: options.flags, cwd });
  if (!resolution.ok) {
    // Problems name settings and files only; they never carry content or keys.
    return {
      ok: false,
      outcome: 'bad-config',
      detail: resolution.problems.join(' | ').slice(0, 500),
      stateDirectory,
      event: hook.event,
      userNotice: { text: configNoticeText(resolution.problems).slice(0, 1_000), sessionId: hook.sessionId },
    };
  }
  const { config } = resolution;
  // What a project file could not widen (it is not trusted) is named once, never silently dropped.
  await logIgnoredProjectKeysOnce(stateDirectory, config.ignored);
  const closed = (outcome: string, detail?: string): HookContextResult => ({
    ok: false,
    outcome,
    ...(detail === undefined ? {} : { detail }),
    stateDirectory,
    event: hook.event,
  });
  if (!config.enabled) return closed('disabled');
  if (config.endpoint === undefined) return closed('no-endpoint');
  if (config.consent === undefined || config.consent.endpoint !== config.endpoint) return closed('no-consent');
  // Read fresh on every event: a switch made a moment ago in the extension or the harness holds now.
  const switches = await FileMemorySwitches.inStateFolder(stateDirectory).read();
  // A switches file that cannot be read may hold a revoke: memory stays off until it is fixed.
  if (!switches.ok) return closed('bad-memory-switches', switches.problem.slice(0, 500));
  const switchedOff = closedBySwitches(switches.switches, workspaceFolder, config.endpoint);
  if (switchedOff !== undefined) return closed(switchedOff.reason, switchedOff.detail);
  const key = await readApiKey(env);
  if (!key.ok) return closed('bad-api-key-file', 'the API key file can be read by other users');
  const userKey = config.userKey ?? (await ensureUserKey(env));
  return {
    ok: true,
    context: { hook, config, endpoint: config.endpoint, apiKey: key.key, userKey, stateDirectory, workspaceFolder },
  };
}

/** The event with its transcript, where the assistant's descriptor knows it for events that do not name it (Copilot CLI's sessionEnd). */
function withTranscriptPath(hook: HookEvent, env: Environment): HookEvent {
  if (hook.transcriptPath !== undefined || hook.sessionId === undefined) return hook;
  const of = assistantDescriptor(hook.assistant ?? DEFAULT_ASSISTANT).input.transcriptPathOf;
  const home = env['HOME'] ?? env['USERPROFILE'] ?? os.homedir();
  const transcriptPath = of === null || home === '' ? undefined : of(home, hook.sessionId);
  return transcriptPath === undefined ? hook : { ...hook, transcriptPath };
}
