// recall.injected_tokens_per_prompt: the memory the hooks inject per prompt over one scripted
// session — SessionStart, then prompts that come back to the same memories — with the BUILT hook
// runner spawned as an agent spawns it, against an emulator over HTTP. Today's behaviour is
// measured in the same run as the baseline: the same events, each under a session id of its own,
// so no event knows what its session was given (brief + full recall every prompt). Each run has
// its own state folder, so both start from the same cold tier. Tokens: the printed
// additionalContext through the real tokenizer (o200k).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { updateConfigFile, userConfigPath } from '@graphiti-memory/memory-node-storage';
import { HOOK_SERVER_VARIABLE } from '@graphiti-memory/agent-hooks';
import { hookRunnerFile } from '@graphiti-memory/agent-hooks/runner-files';
import { countTokens } from '@graphiti-memory/prompt-elements/tiktoken-tokenizer';
import { round, type BenchmarkResult } from './benchmark-result.js';
import { promoteMemories, withBenchWorkspace, type BenchMemory } from './bench-workspace.js';

/** Saying each memory once must cut the tokens injected per prompt by at least a fifth. */
export const SAID_ONCE_TOKENS_GOAL = 0.8;

const MEMORIES: readonly BenchMemory[] = [
  ['decision', 'Releases are cut from the main branch only.'],
  ['decision', 'We deploy the billing API with Fly.io.'],
  ['preference', 'Answer in British English.'],
  ['lesson_learned', 'The staging database resets every night at midnight.'],
  ['lesson_learned', 'The billing API needs the STRIPE_MODE variable set to test in staging.'],
];

const PROMPTS = [
  'How do we deploy the billing API?',
  'Which branch are releases cut from, and when does the staging database reset?',
  'The billing API fails in staging: what do we know about the billing API and staging?',
  'Remind me how the billing API is deployed and released.',
  'What happens to the staging database at night?',
];

export async function measureSaidOnceSession(): Promise<BenchmarkResult> {
  const runner = hookRunnerFile();
  if (!existsSync(runner)) throw new Error(`${runner} is missing; build the hooks first (pnpm --filter @graphiti-memory/agent-hooks build)`);
  // No hook server: each event is its own process, as on a cold machine (nothing left running).
  return withBenchWorkspace('graphiti-said-once-bench-', async (bench) => {
    const { root, workspace, emulator, env } = bench;
    await updateConfigFile(userConfigPath(env), { enabled: true, endpoint: emulator.url, recall: { enabled: true }, consent: { endpoint: emulator.url, grantedAt: new Date().toISOString(), by: 'bench' } });
    await promoteMemories(bench, MEMORIES, ['--state-dir', path.join(root, 'promote-state'), '--workspace', workspace]);
    const session = async (name: string, ownSessionPerEvent: boolean): Promise<number[]> => {
      const runEnv = { ...env, GRAPHITI_MEMORY_STATE_DIR: path.join(root, `state-${name}`) };
      const event = (index: number, fields: Record<string, unknown>) => ({
        session_id: ownSessionPerEvent ? `${name}-${index}` : name,
        transcript_path: path.join(root, `${name}.jsonl`),
        cwd: workspace,
        ...fields,
      });
      const brief = await injectedTokens(runner, event(0, { hook_event_name: 'SessionStart', source: 'startup' }), runEnv, workspace);
      const perPrompt: number[] = [];
      for (const [index, prompt] of PROMPTS.entries()) {
        const recalled = await injectedTokens(runner, event(index + 1, { hook_event_name: 'UserPromptSubmit', prompt }), runEnv, workspace);
        // The brief arrives with the first prompt: both are in that message.
        perPrompt.push(recalled + (index === 0 ? brief : 0));
      }
      return perPrompt;
    };
    const before = await session('before', true);
    const after = await session('after', false);
    const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
    const ratio = mean(after) / Math.max(1, mean(before));
    return {
      name: 'recall.injected_tokens_per_prompt',
      value: round(mean(after), 1),
      unit: 'tokens',
      baseline: round(mean(before), 1),
      ratio: round(ratio),
      goal: `<= ${SAID_ONCE_TOKENS_GOAL}`,
      // A session that injected nothing measured the wrong thing.
      pass: ratio <= SAID_ONCE_TOKENS_GOAL && mean(before) > 0 && after.some((tokens) => tokens > 0),
      details: { prompts: PROMPTS.length, beforePerPrompt: before.join(' '), afterPerPrompt: after.join(' ') },
    };
  }, { [HOOK_SERVER_VARIABLE]: 'off' });
}

/** Runs one hook event and counts the tokens of the context it printed (0 for none). */
async function injectedTokens(runner: string, input: Record<string, unknown>, env: NodeJS.ProcessEnv, cwd: string): Promise<number> {
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [runner, '--event', String(input['hook_event_name'])], { env, cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(text));
    child.stdin.end(JSON.stringify(input));
  });
  if (stdout.trim() === '') return 0;
  const context = (JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '';
  return context === '' ? 0 : countTokens(context);
}
