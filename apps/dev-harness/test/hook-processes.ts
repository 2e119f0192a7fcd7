// Running the built hook runner and harness CLI as the agents and users run them, and reading what
// they did: the run log, the messages the emulator took, the context a hook printed.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { expect } from 'vitest';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { FileOutbox, readConfigFile, stateLayout, updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { harnessBinary, type HookTest, type HookTestHome } from './hook-server-fixture.js';

export interface ProcessRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** From spawn to close. */
  readonly elapsedMs: number;
}

/** Runs `command` to its end with `stdin`, in `cwd`, with exactly `env`; killed after `killAfterMs` if given. */
export function runProcess(command: string, args: readonly string[], stdin: string, env: NodeJS.ProcessEnv, cwd: string, killAfterMs?: number): Promise<ProcessRun> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    // A hook stops reading an input over its bound and exits: the rest of ours meets a closed pipe.
    child.stdin.on('error', () => undefined);
    child.on('close', (exitCode) => {
      clearTimeout(killer);
      resolve({ exitCode, stdout, stderr, elapsedMs: Date.now() - started });
    });
    child.stdin.end(stdin);
  });
}

export interface NodeRunOptions {
  /** The working folder; the test's workspace unless given. */
  readonly cwd?: string;
  /** Variables added to the test's environment. */
  readonly env?: NodeJS.ProcessEnv;
}

/** Runs a Node script (the hook runner, the harness CLI) in the test's HOME, as an agent spawns it. */
export function runNode(test: Pick<HookTestHome, 'env' | 'workspace'>, args: readonly string[], stdin = '', options: NodeRunOptions = {}): Promise<ProcessRun> {
  return runProcess(process.execPath, args, stdin, { ...test.env, ...options.env }, options.cwd ?? test.workspace);
}

/** Runs the harness CLI in the test's HOME and expects it to succeed (its stderr shown if not). */
export async function harnessSucceeds(test: Pick<HookTestHome, 'env' | 'workspace'>, args: readonly string[]): Promise<ProcessRun> {
  const run = await runNode(test, [harnessBinary, ...args]);
  expect(run.exitCode, run.stderr).toBe(0);
  return run;
}

/** One line of hooks/runs.jsonl. */
export interface LoggedRun {
  readonly event: string;
  readonly outcome: string;
  readonly ms?: number;
  readonly via?: string;
  readonly detail?: string;
  readonly build?: string;
}

/** The hook runs logged in the state folder, oldest first (none before the first run). */
export async function loggedRuns(stateDir: string): Promise<LoggedRun[]> {
  const text = await fs.readFile(path.join(stateDir, 'hooks', 'runs.jsonl'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LoggedRun);
}

/** Polls `probe` until it gives a value; throws naming `what` after `timeoutMs`. */
export async function waitForValue<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls `condition` until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  await waitForValue(async () => ((await condition()) ? true : undefined), what, timeoutMs);
}

export interface ClaudeLineOptions {
  /** The folder Claude Code ran in. */
  readonly cwd: string;
  readonly sessionId?: string;
  /** The message's second of 2026-11-23T09:00 (UTC); now when not given. */
  readonly second?: number;
}

/** A line of a Claude Code transcript (as 2.0.61 writes it): a user or a finished assistant message. */
export function claudeTranscriptLine(type: 'user' | 'assistant', uuid: string, text: string, options: ClaudeLineOptions): string {
  const timestamp = options.second === undefined ? new Date() : new Date(Date.UTC(2026, 10, 23, 9, 0, options.second));
  const base = { parentUuid: null, isSidechain: false, userType: 'external', cwd: options.cwd, sessionId: options.sessionId ?? 'claude-session-1', version: '2.0.61', uuid, timestamp: timestamp.toISOString() };
  return JSON.stringify(
    type === 'user'
      ? { ...base, type, message: { role: 'user', content: text } }
      : { ...base, type, message: { id: `msg-${uuid}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text }], stop_reason: 'end_turn' } },
  );
}

export interface SentMessage {
  readonly group: string;
  readonly name: string;
  readonly content: string;
  readonly source: string;
}

/** Every message POSTed to the emulator's /messages, in order, with the group it went to. */
export function messagesSent(emulator: RunningEmulator): SentMessage[] {
  return emulator.requests
    .filter((request) => request.route === 'messages')
    .flatMap((request) => {
      const body = request.body as { group_id: string; messages?: Array<{ name: string; content: string; source_description?: string }> };
      return (body.messages ?? []).map((message) => ({ group: body.group_id, name: message.name, content: message.content, source: message.source_description ?? '' }));
    });
}

/** The context a UserPromptSubmit or SessionStart hook printed. */
export function additionalContext(run: ProcessRun): string {
  return (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

/** The harness and Claude Code hook events of one test, against its emulator, state folder and workspace. */
export function hookTestTools(test: HookTest) {
  const runner = hookRunnerFile();
  return {
    /** The harness at the test's emulator, state folder and workspace; it must succeed. */
    harness: (...args: string[]): Promise<ProcessRun> =>
      harnessSucceeds(test, [...args, '--endpoint', test.emulator.url, '--state-dir', test.stateDir, '--workspace', test.workspace]),
    /** The built runner given a Claude Code event of `session` (its transcript under the test's folder). */
    hook: (event: string, session: string, fields: Record<string, unknown> = {}): Promise<ProcessRun> => {
      const input = { session_id: session, transcript_path: path.join(test.root, `${session}.jsonl`), cwd: test.workspace, hook_event_name: event, ...fields };
      return runNode(test, [runner, '--event', event, '--installed-by', 'test'], JSON.stringify(input));
    },
  };
}

/** The context a hook run printed ('' for none); the run must have exited 0. */
export function printedContext(run: ProcessRun): string {
  expect(run.exitCode, run.stderr).toBe(0);
  return run.stdout === '' ? '' : additionalContext(run);
}

/** The names of the messages waiting in the endpoint's outbox on disk (every journal of the folder). */
export async function queuedMessageNames(test: Pick<HookTestHome, 'stateDir' | 'workspace'>, endpoint: string): Promise<string[]> {
  const outbox = await FileOutbox.open({ directory: stateLayout(test.stateDir, test.workspace, normaliseEndpoint(endpoint) ?? endpoint).outboxDirectory });
  try {
    return (await outbox.pending(100)).map((record) => record.message.name ?? '');
  } finally {
    await outbox.close();
  }
}

/**
 * `hooks install` at `emulator`, one promoted workspace decision (pnpm), and a recall deadline of
 * 5 s: a busy machine must not turn an answer into a missed deadline in tests of what is printed.
 */
export async function installWithFact(test: Pick<HookTestHome, 'env' | 'workspace' | 'stateDir'>, emulator: RunningEmulator): Promise<void> {
  const { stateDir, workspace } = test;
  await harnessSucceeds(test, ['hooks', 'install', '--target', 'claude', '--endpoint', emulator.url, '--state-dir', stateDir]);
  await harnessSucceeds(test, ['promote', 'We always use pnpm as the package manager in this repository.', '--kind', 'decision', '--scope', 'workspace', '--endpoint', emulator.url, '--state-dir', stateDir, '--workspace', workspace]);
  await emulator.idle();
  await generousRecallDeadline(test.env);
}

/** A recall deadline of 5 s in the user config `env` names: a busy machine must not turn an answer into a missed deadline. */
export async function generousRecallDeadline(env: NodeJS.ProcessEnv): Promise<void> {
  const file = userConfigPath(env);
  const current = await readConfigFile(file);
  await updateConfigFile(file, { recall: { ...(current.ok ? current.values.recall : {}), timeoutMs: 5_000 } });
}
