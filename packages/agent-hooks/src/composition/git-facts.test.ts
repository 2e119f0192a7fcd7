// A repository is not ours: its config can name commands git runs. Reading its facts must run none
// of them, with git metadata off (no git at all) and on (git with fsmonitor and hooks disabled).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readGitFacts, remoteFromGitConfig } from './git-facts.js';

let root: string;
let repository: string;
let marker: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'git-facts-'));
  repository = path.join(root, 'extracted');
  marker = path.join(root, 'fsmonitor-ran');
  await fs.mkdir(repository);
  execFileSync('git', ['init', '-q', repository]);
  execFileSync('git', ['-C', repository, 'remote', 'add', 'origin', 'https://github.com/acme/widget.git']);
  await fs.writeFile(path.join(repository, 'a.txt'), 'a\n');
  execFileSync('git', ['-C', repository, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'add', 'a.txt']);
  execFileSync('git', ['-C', repository, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'a']);
  // What an extracted archive's `.git/config` can hold: a command git would run on `git status`.
  const hook = path.join(root, 'monitor.sh');
  await fs.writeFile(hook, `#!/bin/sh\necho ran >> '${marker}'\n`, { mode: 0o755 });
  execFileSync('git', ['-C', repository, 'config', 'core.fsmonitor', hook]);
  execFileSync('git', ['-C', repository, 'config', 'core.pager', `sh -c 'echo ran >> ${marker}'`]);
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const markerExists = () => fs.access(marker).then(() => true, () => false);

describe('readGitFacts', () => {
  it('proves the planted fsmonitor runs under a plain git status (so the tests below can fail)', async () => {
    execFileSync('git', ['-C', repository, 'status', '--porcelain'], { env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } });
    expect(await markerExists()).toBe(true);
  });

  it('reads the remote from .git/config without running git or anything it names (git metadata off)', async () => {
    expect(await readGitFacts(repository)).toEqual({ remote: 'https://github.com/acme/widget.git' });
    expect(await readGitFacts(path.join(repository))).toEqual({ remote: 'https://github.com/acme/widget.git' });
    expect(await markerExists()).toBe(false);
  });

  it('with git metadata on, reads branch, commit and dirty flag with fsmonitor and hooks disabled', async () => {
    await fs.writeFile(path.join(repository, 'a.txt'), 'changed\n');
    const facts = await readGitFacts(repository, { metadata: true });
    expect(facts).toMatchObject({ remote: 'https://github.com/acme/widget.git', dirty: true });
    expect(facts.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(facts.branch).toMatch(/^(main|master)$/);
    expect(await markerExists()).toBe(false);
  });

  it('finds the repository from a subfolder and outside one returns nothing', async () => {
    await fs.mkdir(path.join(repository, 'src', 'deep'), { recursive: true });
    expect(await readGitFacts(path.join(repository, 'src', 'deep'))).toEqual({ remote: 'https://github.com/acme/widget.git' });
    const plain = path.join(root, 'plain');
    await fs.mkdir(plain);
    expect(await readGitFacts(plain)).toEqual({});
  });

  it('does not read a .git/config that is a link out of the repository', async () => {
    const elsewhere = path.join(root, 'elsewhere-config');
    await fs.writeFile(elsewhere, '[remote "origin"]\n\turl = https://evil.example/x.git\n');
    await fs.rm(path.join(repository, '.git', 'config'));
    await fs.symlink(elsewhere, path.join(repository, '.git', 'config'));
    expect(await readGitFacts(repository)).toEqual({});
  });
});

describe('remoteFromGitConfig', () => {
  it("picks origin's url, else the first remote's", () => {
    expect(remoteFromGitConfig('[remote "upstream"]\n url = a\n[remote "origin"]\n\turl = "b"\n')).toBe('b');
    expect(remoteFromGitConfig('[core]\n bare = false\n[remote "upstream"]\n url = a\n')).toBe('a');
    expect(remoteFromGitConfig('[core]\n bare = false\n')).toBeUndefined();
  });
});
