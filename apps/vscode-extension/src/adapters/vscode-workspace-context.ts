// What VS Code knows about the workspace: trust, folders, and git facts from the built-in git
// extension when it is present and active (read lazily, cached; never a path).
import * as vscode from 'vscode';
import type { GitMetadata, WorkspaceContext } from '@graphiti-memory/memory-core';

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

  isTrusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  folderUris(): readonly string[] {
    return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString());
  }

  gitRemote(): string | undefined {
    const repository = this.#repository();
    const remotes = repository?.state.remotes ?? [];
    const remote = remotes.find((candidate) => candidate.name === 'origin') ?? remotes[0];
    const url = remote?.fetchUrl ?? remote?.pushUrl;
    return url === undefined ? undefined : normaliseRemote(url);
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

/**
 * `https://github.com/Owner/Repo.git`, `git@github.com:owner/repo` and `ssh://git@github.com/owner/repo`
 * all become `github.com/owner/repo`: credentials, scheme and `.git` dropped, case folded.
 */
export function normaliseRemote(url: string): string | undefined {
  const trimmed = url.trim();
  const scp = /^[\w.-]+@([\w.-]+):(.+)$/.exec(trimmed);
  let host: string;
  let path: string;
  if (scp) {
    host = scp[1] ?? '';
    path = scp[2] ?? '';
  } else {
    try {
      const parsed = new URL(trimmed);
      host = parsed.hostname;
      path = parsed.pathname;
    } catch {
      return undefined;
    }
  }
  const cleanPath = path.replace(/^\/+/, '').replace(/\.git$/, '').replace(/\/+$/, '');
  if (host === '' || cleanPath === '') return undefined;
  return `${host}/${cleanPath}`.toLowerCase();
}
