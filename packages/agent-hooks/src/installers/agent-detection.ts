// Whether an assistant is installed on this machine, from the traces its descriptor names: its
// folder in the home folder, or its command on PATH. `setup` (which installs hooks for what it
// finds) and `doctor` both ask here, so they agree.
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { ASSISTANTS, type AgentHookTarget } from '../assistants/assistant-registry.js';

export interface AgentDetection {
  /** What the user calls it. */
  readonly name: string;
  /** Folders in the home folder it creates (exact names). */
  readonly homeFolders: readonly string[];
  /** Beginnings of folder names in the home folder (`.vscode` finds `.vscode`, `.vscode-insiders`, `.vscode-server`). */
  readonly homeFolderPrefixes: readonly string[];
  /** Commands on PATH. */
  readonly commands: readonly string[];
}

/** How each hook target's assistant is found: its descriptor's name and detection. */
export const AGENT_DETECTION: Readonly<Record<AgentHookTarget, AgentDetection>> = Object.fromEntries(
  ASSISTANTS.map((assistant): [string, AgentDetection] => [assistant.target, { name: assistant.name, ...assistant.detection }]),
) as Record<AgentHookTarget, AgentDetection>;

export interface DetectedAgent {
  readonly target: AgentHookTarget;
  readonly name: string;
  readonly found: boolean;
  /** What was found (`~/.claude`, `claude on PATH`); empty when nothing was. */
  readonly evidence: readonly string[];
}

export interface DetectAgentsOptions {
  readonly home: string;
  /** For PATH (and PATHEXT on Windows). */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Every hook target, with whether its assistant was found here and why; never throws. */
export async function detectAgents(options: DetectAgentsOptions): Promise<DetectedAgent[]> {
  const homeEntries = await fs.readdir(options.home, { withFileTypes: true }).catch(() => []);
  const homeFolders = homeEntries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const targets = Object.keys(AGENT_DETECTION) as AgentHookTarget[];
  return Promise.all(
    targets.map(async (target): Promise<DetectedAgent> => {
      const detection = AGENT_DETECTION[target];
      const evidence = homeFolders
        .filter((name) => detection.homeFolders.includes(name) || detection.homeFolderPrefixes.some((prefix) => name.startsWith(prefix)))
        .sort()
        .map((name) => `~/${name}`);
      for (const command of detection.commands) {
        const found = await findOnPath(command, options.env);
        if (found !== undefined) evidence.push(`${command} on PATH (${found})`);
      }
      return { target, name: detection.name, found: evidence.length > 0, evidence };
    }),
  );
}

/** The first executable `command` on PATH, or `undefined`. */
async function findOnPath(command: string, env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  const folders = (env['PATH'] ?? env['Path'] ?? '').split(path.delimiter).filter((folder) => folder !== '');
  const extensions = process.platform === 'win32' ? (env['PATHEXT'] ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const folder of folders) {
    for (const extension of extensions) {
      const candidate = path.join(folder, `${command}${extension}`);
      try {
        await fs.access(candidate, constants.X_OK);
        if ((await fs.stat(candidate)).isFile()) return candidate;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}
