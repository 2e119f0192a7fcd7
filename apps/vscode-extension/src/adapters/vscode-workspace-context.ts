// What VS Code knows about the workspace: trust, folders, the git remote (from the first folder's
// git config, as the harness and the hooks see it) and branch facts from the built-in git extension
// when it is present and active (read lazily, cached; never a path).
import * as vscode from 'vscode';
import type { GitMetadata, WorkspaceContext } from '@graphiti-memory/memory-core';
import { readGitConfigRemote } from './git-config-remote.js';

/** The part of the `vscode.git` extension API (version 1) that is read here. */
interface GitRepositoryLike {
  readonly state: {
    readonly HEAD?: { readonly name?: string; readonly commit?: string } | undefined;
    readonly remotes: readonly { readonly name: string; readonly fetchUrl?: string; readonly pushUrl?: string }[];
    readonly workingTreeChanges: readonly unknown[];
    readonly indexChanges: readonly unknown[];
  };
}
interface GitApiLike {
  readonly repositories: readonly GitRepositoryLike[];
}
interface GitExtensionLike {
  getAPI(version: 1): GitApiLike;
}

export class VsCodeWorkspaceContext implements WorkspaceContext {
  #git: GitApiLike | undefined;
  #gitLookedUp = false;
  #configRemote: { readonly folder: string; readonly remote: string | undefined } | undefined;

  isTrusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  folderUris(): readonly string[] {
    return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString());
  }

  /** The folders on this machine's disk (the stale check looks paths up there; remote folders have none). */
  localFolderPaths(): readonly string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  }

  /** As written in the git config; memory-core normalises it into one spelling for every tool. */
  gitRemote(): string | undefined {
    const fromConfig = this.#remoteFromConfig();
    if (fromConfig !== undefined) return fromConfig;
    const remotes = this.#repository()?.state.remotes ?? [];
    const remote = remotes.find((candidate) => candidate.name === 'origin') ?? remotes[0];
    return remote?.fetchUrl ?? remote?.pushUrl;
  }

  gitMetadata(): GitMetadata | undefined {
    const state = this.#repository()?.state;
    if (state === undefined) return undefined;
    const branch = state.HEAD?.name;
    const commit = state.HEAD?.commit;
    return {
      ...(branch === undefined ? {} : { branch }),
      ...(commit === undefined ? {} : { commit }),
      dirty: state.workingTreeChanges.length + state.indexChanges.length > 0,
    };
  }

  accountId(): string | undefined {
    return undefined;
  }

  #remoteFromConfig(): string | undefined {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    if (folder?.scheme !== 'file') return undefined;
    if (this.#configRemote?.folder !== folder.fsPath) {
      this.#configRemote = { folder: folder.fsPath, remote: readGitConfigRemote(folder.fsPath) };
    }
    return this.#configRemote.remote;
  }

  #repository(): GitRepositoryLike | undefined {
    if (!this.#gitLookedUp) {
      this.#gitLookedUp = true;
      try {
        // Only an already active git extension is used: activating it here would slow chat down.
        const extension = vscode.extensions.getExtension<GitExtensionLike>('vscode.git');
        if (extension?.isActive) this.#git = extension.exports.getAPI(1);
      } catch {
        this.#git = undefined;
      }
    }
    return this.#git?.repositories[0];
  }
}
