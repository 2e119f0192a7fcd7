import { describe, expect, it } from 'vitest';
import { UsageError } from '../cli/harness-errors.js';
import { BENCHMARKS, selectBenchmarks } from './bench-command.js';

describe('bench selection', () => {
  it('lists the required ratios', () => {
    expect(BENCHMARKS.map((benchmark) => benchmark.name)).toEqual([
      'client.search.throughput_ratio',
      'core.recall.concurrency_ratio',
      'core.enqueue.p99_ratio',
      'core.ingest.requests_per_message',
      'storage.enqueue.p99_ratio',
      'hook.prompt_submit.start_ratio',
      'hook.prompt_submit.hang_overhead_ms',
      'hook.prompt_submit.cold_ratio',
      'hook.prompt_submit.no_server_ratio',
      'recall.injected_tokens_per_prompt',
      'eval.hit_rate_at_5',
      'capture.digest.episodes_per_group',
      'capture.digest.text_per_group',
    ]);
  });

  it('selects by name or prefix, and refuses names that match nothing', () => {
    expect(selectBenchmarks('core.').map((benchmark) => benchmark.name)).toHaveLength(3);
    expect(selectBenchmarks('storage.enqueue.p99_ratio')).toHaveLength(1);
    expect(() => selectBenchmarks('gpu.')).toThrow(UsageError);
  });
});
