import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { normaliseGitRemote } from '@graphiti-memory/memory-core';
import * as vscode from 'vscode';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetTestHost, testHost } from '../test-support/vscode-double.js';
import { readGitConfigRemote, remoteFromConfig } from './git-config-remote.js';
import { VsCodeWorkspaceContext } from './vscode-workspace-context.js';

let folder: string;

beforeEach(() => {
  resetTestHost();
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'git-config-remote-'));
});
afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

function writeConfig(gitDirectory: string, text: string): void {
  fs.mkdirSync(gitDirectory, { recursive: true });
  fs.writeFileSync(path.join(gitDirectory, 'config'), text);
}

describe('remoteFromConfig', () => {
  it('prefers origin over other remotes and ignores other sections', () => {
    const text = [
      '[core]',
      '\turl = not-a-remote',
      '[remote "upstream"]',
      '\turl = https://github.com/upstream/repo.git',
      '[remote "origin"]',
      '\tfetch = +refs/heads/*:refs/remotes/origin/*',
      '\turl = git@github.com:Owner/Repo.git',
    ].join('\n');
    expect(remoteFromConfig(text)).toBe('git@github.com:Owner/Repo.git');
  });

  it('takes the first remote when there is no origin, and nothing when there is no remote', () => {
    expect(remoteFromConfig('[remote "fork"]\n  url = "https://example.com/a/b"\n')).toBe('https://example.com/a/b');
    expect(remoteFromConfig('[core]\n\tbare = false\n')).toBeUndefined();
  });
});

describe('readGitConfigRemote', () => {
  it('reads .git/config, and a linked worktree through its gitdir and commondir', () => {
    writeConfig(path.join(folder, 'main', '.git'), '[remote "origin"]\n\turl = https://github.com/o/r.git\n');
    expect(readGitConfigRemote(path.join(folder, 'main'))).toBe('https://github.com/o/r.git');

    const worktreeGitDirectory = path.join(folder, 'main', '.git', 'worktrees', 'feature');
    fs.mkdirSync(worktreeGitDirectory, { recursive: true });
    fs.writeFileSync(path.join(worktreeGitDirectory, 'commondir'), '../..\n');
    fs.mkdirSync(path.join(folder, 'feature'));
    fs.writeFileSync(path.join(folder, 'feature', '.git'), `gitdir: ${worktreeGitDirectory}\n`);
    expect(readGitConfigRemote(path.join(folder, 'feature'))).toBe('https://github.com/o/r.git');
  });

  it('returns undefined for a folder that is not a repository', () => {
    expect(readGitConfigRemote(folder)).toBeUndefined();
  });

  it('agrees with `git remote get-url origin`, which the harness and the hooks use', () => {
    try {
      execFileSync('git', ['init', '-q', folder]);
      execFileSync('git', ['-C', folder, 'remote', 'add', 'origin', 'ssh://git@GitHub.com:22/Owner/Repo.git']);
    } catch {
      return expect.fail('git is needed for this test (it is on every machine this project supports)');
    }
    const fromGit = execFileSync('git', ['-C', folder, 'remote', 'get-url', 'origin'], { encoding: 'utf8' }).trim();
    expect(readGitConfigRemote(folder)).toBe(fromGit);
  });
});

describe('VsCodeWorkspaceContext.gitRemote', () => {
  it('knows the remote without VS Code\'s git extension, in the spelling every tool normalises to', () => {
    writeConfig(path.join(folder, '.git'), '[remote "origin"]\n\turl = git@github.com:Owner/Repo.git\n');
    testHost().workspaceFolders = [{ uri: vscode.Uri.file(folder), name: 'project', index: 0 }];
    const remote = new VsCodeWorkspaceContext().gitRemote();
    expect(remote).toBeDefined();
    expect(normaliseGitRemote(remote ?? '')).toBe('github.com/owner/repo');
  });

  it('has no remote for a folder without git', () => {
    testHost().workspaceFolders = [{ uri: vscode.Uri.file(folder), name: 'project', index: 0 }];
    expect(new VsCodeWorkspaceContext().gitRemote()).toBeUndefined();
  });
});
