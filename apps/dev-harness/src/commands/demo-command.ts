// `graphiti-harness demo`: the whole memory loop, offline, shown step
// by step — a scripted conversation is ingested, confirmed stored, recalled, and rendered as the
// `<graphiti_memory>` block a prompt gets; then checks that prove it worked, secret guard included.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChatTurn, MemoryScope, RecallResult } from '@graphiti-memory/memory-core';
import { Command } from 'commander';
import type { CommandContext } from '../cli/command-runner.js';
import { addCommonOptions, type RawCommonOptions } from '../cli/common-options.js';
import { ExitCode, HarnessError } from '../cli/harness-errors.js';
import { openHarnessMemory, type HarnessMemory } from '../composition/harness-container.js';
import { deliveryCounts, waitForDelivery } from '../delivery/wait-for-delivery.js';
import {
  CURRENT_FACT_PATTERN,
  DEMO_FIRST_SESSION,
  DEMO_QUERY,
  DEMO_SECOND_SESSION,
  DEMO_SECRET,
  DEMO_SESSIONS,
  SUPERSEDED_FACT_PATTERN,
} from '../demo/demo-conversation.js';
import { renderMemoryPrompt } from '../prompt/render-memory-prompt.js';
import { MEMORY_BLOCK_TAG } from '@graphiti-memory/prompt-elements';
import type { Output } from '../terminal/output.js';
import type { CommandRegistrar } from './command-registrar.js';
import { factJson } from './recall-command.js';

interface DemoOptions extends RawCommonOptions {
  readonly wait?: string;
}

export interface DemoCheck {
  readonly name: string;
  /** `undefined`: could not be checked here (e.g. no request log of a real server). */
  readonly ok: boolean | undefined;
  readonly detail: string;
}

const DEMO_WAIT_MS = 60_000;

export function createDemoCommand(name: string): Command {
  return new Command(name)
    .description('the whole memory loop on a scripted conversation: ingest → confirm → recall → prompt (offline by default)')
    .addHelpText(
      'after',
      [
        '',
        'Runs against an in-process EMULATOR of Graphiti unless --endpoint is given; state goes to a temporary',
        'folder unless --state-dir is given. Against a real endpoint it uses fresh groups and deletes them afterwards.',
        'Ends with checks (✔/✘); exit 1 if any fails.',
        '',
        'Examples:',
        '  graphiti-harness demo',
        '  graphiti-harness demo --json',
        '  graphiti-harness demo --endpoint http://localhost:8000 --timeout-ms 30000',
      ].join('\n'),
    );
}

export const registerDemoCommand: CommandRegistrar = (program, run) => {
  program.addCommand(addCommonOptions(createDemoCommand('demo'), 'emulator').action((raw: DemoOptions) => run(raw, demo, { configFiles: false })));
};

export async function demo(context: CommandContext): Promise<ExitCode> {
  const { output, terminal } = context;
  const workspaceFolder = await fs.mkdtemp(path.join(os.tmpdir(), 'graphiti-harness-demo-workspace-'));
  context.defer(() => fs.rm(workspaceFolder, { recursive: true, force: true }));
  const memory = await openHarnessMemory(context, { temporaryStateUnlessGiven: true, workspaceFolder, autoPromote: true, review: false, emulator: { whenNoEndpoint: true } });
  if (memory.endpoint.emulator === undefined) context.defer(() => deleteDemoGroups(memory, output));
  memory.ingestion.start();

  output.heading(`1. Session one (${DEMO_FIRST_SESSION.length} turns) is ingested`);
  showTurns(output, DEMO_FIRST_SESSION);
  const first = await ingestAndConfirm(context, memory, DEMO_FIRST_SESSION);

  output.heading(`2. A week later, session two (${DEMO_SECOND_SESSION.length} turns) contradicts a fact`);
  showTurns(output, DEMO_SECOND_SESSION);
  const second = await ingestAndConfirm(context, memory, DEMO_SECOND_SESSION);

  output.heading('3. Session one is seen again (a reloaded window): nothing is sent twice');
  const sentBefore = memory.ingestion.stats().counters.sent;
  const duplicatesBefore = memory.ingestion.stats().counters.duplicates;
  for (const turn of DEMO_FIRST_SESSION) memory.ingestion.enqueue(turn);
  endSessionsOf(memory, DEMO_FIRST_SESSION);
  await waitForDelivery(memory.ingestion, { until: 'confirmed', timeoutMs: DEMO_WAIT_MS, output, terminal });
  const resentCount = memory.ingestion.stats().counters.sent - sentBefore;
  const skipped = memory.ingestion.stats().counters.duplicates - duplicatesBefore;
  output.line(`  ${skipped} messages recognised as delivered, ${resentCount} sent`);

  output.heading(`4. Recall: "${DEMO_QUERY}"`);
  const withSuperseded = await memory.recall.recall(DEMO_QUERY, { scopes: 'all', sessionId: DEMO_SESSIONS.second, keepSuperseded: true });
  showFacts(output, withSuperseded);
  const current = await memory.recall.recall(DEMO_QUERY, { scopes: 'all', sessionId: DEMO_SESSIONS.second });

  output.heading('5. The <graphiti_memory> block the prompt gets (superseded facts left out)');
  const prompt = await renderMemoryPrompt(current.facts);
  output.line(prompt.text === '' ? output.colors.yellow('  (empty: no facts)') : prompt.text);
  output.line(output.colors.dim(`  ${prompt.tokenCount} tokens`));

  const checks = demoChecks(memory, {
    confirmed: first.complete && second.complete,
    resentCount,
    current,
    withSuperseded,
    prompt: prompt.text,
  });
  output.heading('6. Checks');
  for (const check of checks) {
    const mark = check.ok === undefined ? output.colors.yellow('–') : check.ok ? output.colors.green('✔') : output.colors.red('✘');
    output.line(`  ${mark} ${check.name}: ${check.detail}`);
  }
  const ok = checks.every((check) => check.ok !== false);
  const stats = memory.ingestion.stats();
  output.result({
    ok,
    endpoint: memory.endpoint.url,
    emulator: memory.endpoint.emulator !== undefined,
    ...deliveryCounts(stats),
    facts: current.facts.map(factJson),
    prompt: prompt.text,
    checks,
  });
  output.line();
  output.line(ok ? output.colors.green('Demo passed.') : output.colors.red('Demo failed: see the ✘ checks above.'));
  if (memory.endpoint.emulator !== undefined) {
    output.line(output.colors.dim('This ran against the in-process emulator (lexical stand-in extraction), not Graphiti. Pass --endpoint URL for a real one.'));
  }
  return ok ? ExitCode.ok : ExitCode.failure;
}

/** The scripted sessions are finished: their digests close now (capture.granularity session). */
function endSessionsOf(memory: HarnessMemory, turns: readonly ChatTurn[]): void {
  memory.ingestion.endSessions(turns.map((turn) => turn.sessionId));
}

async function ingestAndConfirm(context: CommandContext, memory: HarnessMemory, turns: readonly ChatTurn[]) {
  for (const turn of turns) memory.ingestion.enqueue(turn);
  endSessionsOf(memory, turns);
  await memory.ingestion.settled();
  const before = memory.ingestion.stats().queueDepth;
  const outcome = await waitForDelivery(memory.ingestion, {
    until: 'confirmed',
    timeoutMs: Math.max(DEMO_WAIT_MS, context.options.timeoutMs * 4),
    output: context.output,
    terminal: context.terminal,
  });
  const counts = deliveryCounts(outcome.stats);
  const mark = outcome.complete ? context.output.colors.green('✔') : context.output.colors.red('✘');
  context.output.line(`  ${mark} ${before} messages queued (user + assistant, session and workspace scopes, promoted directives); ${counts.confirmed} confirmed stored so far`);
  if (outcome.interrupted) throw new HarnessError('demo interrupted.');
  if (!outcome.complete && outcome.stats.lastErrorClass !== undefined) {
    context.output.warn(`sending failed with ${outcome.stats.lastErrorClass} at ${memory.endpoint.url}.`);
  }
  return outcome;
}

function showTurns(output: Output, turns: readonly ChatTurn[]): void {
  for (const turn of turns) {
    output.line(`  ${output.colors.cyan('user')}      ${displayed(turn.user.text)}`);
    if (turn.assistant !== undefined) output.line(`  ${output.colors.magenta('assistant')} ${displayed(turn.assistant.text)}`);
  }
}

/** The made-up token is shown shortened, so nobody copies it from a screenshot. */
function displayed(text: string): string {
  return text.replace(DEMO_SECRET, `${DEMO_SECRET.slice(0, 8)}… (a made-up GitHub token)`);
}

function showFacts(output: Output, result: RecallResult): void {
  output.line(`  ${result.facts.length} facts in ${result.elapsedMs} ms from ${result.scopes.join(', ')}${result.timedOut ? ' (deadline passed)' : ''}`);
  for (const fact of result.facts) {
    const mark = fact.superseded === true ? output.colors.yellow(` (superseded ${fact.invalid_at ?? ''})`) : '';
    output.line(`  ${output.colors.dim(`[${fact.scope}]`)} ${fact.fact}${mark}`);
  }
}

interface DemoOutcome {
  readonly confirmed: boolean;
  readonly resentCount: number;
  readonly current: RecallResult;
  readonly withSuperseded: RecallResult;
  readonly prompt: string;
}

export function demoChecks(memory: HarnessMemory, outcome: DemoOutcome): DemoCheck[] {
  const stats = memory.ingestion.stats();
  const { current, withSuperseded, prompt } = outcome;
  const checks: DemoCheck[] = [
    {
      name: 'delivered',
      ok: outcome.confirmed && stats.queueDepth === 0 && stats.counters.confirmed === stats.counters.enqueued,
      detail: `${stats.counters.confirmed} of ${stats.counters.enqueued} messages confirmed stored (found through /episodes)`,
    },
    {
      name: 'no duplicates',
      ok: outcome.resentCount === 0,
      detail: outcome.resentCount === 0 ? 'seeing session one again sent nothing' : `${outcome.resentCount} messages were sent twice`,
    },
    {
      name: 'current fact recalled',
      ok: current.facts.some((fact) => CURRENT_FACT_PATTERN.test(fact.fact)),
      detail: 'the pnpm switch from session two is among the facts',
    },
    {
      name: 'contradicted fact superseded',
      ok:
        !current.facts.some((fact) => SUPERSEDED_FACT_PATTERN.test(fact.fact)) &&
        withSuperseded.facts.some((fact) => SUPERSEDED_FACT_PATTERN.test(fact.fact) && fact.superseded === true),
      detail: '"uses npm" is marked superseded and left out of the prompt',
    },
    {
      name: 'prompt rendered',
      ok: prompt.includes(`<${MEMORY_BLOCK_TAG}`) && CURRENT_FACT_PATTERN.test(prompt) && !SUPERSEDED_FACT_PATTERN.test(prompt),
      detail: `one <${MEMORY_BLOCK_TAG}> block with the current fact only`,
    },
  ];
  const emulator = memory.endpoint.emulator;
  if (emulator === undefined) {
    checks.push({ name: 'secret kept local', ok: undefined, detail: 'not checked: needs the in-process emulator’s request log' });
  } else {
    const bodies = emulator.requests.map((request) => JSON.stringify(request.body ?? null));
    const leaked = bodies.some((body) => body.includes(DEMO_SECRET));
    const redacted = bodies.some((body) => body.includes('[REDACTED:'));
    checks.push({
      name: 'secret kept local',
      ok: !leaked && redacted,
      detail: leaked
        ? `the token reached the server (${emulator.requests.length} requests checked)`
        : `the token is in none of the ${emulator.requests.length} requests the emulator logged; it was sent redacted`,
    });
  }
  return checks;
}

/** Against a real Graphiti the demo used fresh groups: delete them again. */
async function deleteDemoGroups(memory: HarnessMemory, output: Output): Promise<void> {
  const scopes: Array<[MemoryScope, string | undefined]> = [
    ['session', DEMO_SESSIONS.first],
    ['session', DEMO_SESSIONS.second],
    ['workspace', undefined],
    ['user', undefined],
  ];
  for (const [scope, sessionId] of scopes) {
    const groupId = await memory.groups.resolve(scope, sessionId === undefined ? {} : { sessionId });
    if (groupId === undefined) continue;
    try {
      await memory.client.deleteGroup(groupId);
    } catch {
      output.warn(`could not delete the demo group ${groupId}; delete it by hand (DELETE /group/${groupId}).`);
    }
  }
}
