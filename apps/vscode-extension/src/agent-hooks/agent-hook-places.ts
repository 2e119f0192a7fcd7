// Where Connect writes: the home folder whose hook files the agents read, the environment that
// locates the user config folder, and the runner bundled in this installation with its version. Tests bind
// temporary folders here; the extension binds the real ones.
import os from 'node:os';
import path from 'node:path';
import type { Environment } from '@graphiti-memory/memory-node-storage';

export interface AgentHookPlaces {
  readonly home: string;
  readonly environment: Environment;
  /** The runner shipped in the VSIX (`dist/hook-runner.cjs`). */
  readonly bundledRunner: string;
  /** The extension's version: names the runner copy Connect installs (`<state folder>/runner/<version>+<build>/`). */
  readonly version: string;
  /** The runtime that runs it: VS Code's own (Electron as node on the desktop, node on a server). */
  readonly runtime: { readonly path: string; readonly environment: Readonly<Record<string, string>> };
}
export const AgentHookPlaces = Symbol.for('graphiti-memory.vscode.AgentHookPlaces');

export function defaultAgentHookPlaces(extensionPath: string, version: string): AgentHookPlaces {
  return {
    version,
    home: os.homedir(),
    environment: process.env,
    bundledRunner: path.join(extensionPath, 'dist', 'hook-runner.cjs'),
    // Desktop VS Code ships no `node`; its Electron binary runs scripts as node with this variable.
    // A server (Remote, code-server) runs on node itself, where the variable is harmless.
    runtime: { path: process.execPath, environment: process.versions.electron === undefined ? {} : { ELECTRON_RUN_AS_NODE: '1' } },
  };
}
