// The workspace as a terminal knows it: the folder given with --workspace (the current folder by
// default) and its git facts. The user runs the harness on purpose, so the folder is trusted.
import { pathToFileURL } from 'node:url';
import type { GitMetadata, WorkspaceContext } from '@graphiti-memory/memory-core';
import type { GitFacts } from './git-facts.js';

export class TerminalWorkspaceContext implements WorkspaceContext {
  constructor(
    private readonly folder: string,
    private readonly git: GitFacts,
  ) {}

  isTrusted(): boolean {
    return true;
  }

  folderUris(): readonly string[] {
    return [pathToFileURL(this.folder).href];
  }

  gitRemote(): string | undefined {
    return this.git.remote;
  }

  gitMetadata(): GitMetadata | undefined {
    const { branch, commit, dirty } = this.git;
    if (branch === undefined && commit === undefined && dirty === undefined) return undefined;
    return {
      ...(branch === undefined ? {} : { branch }),
      ...(commit === undefined ? {} : { commit }),
      ...(dirty === undefined ? {} : { dirty }),
    };
  }

  accountId(): string | undefined {
    return undefined;
  }
}
