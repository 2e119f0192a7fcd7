// The mirror bench measures something: every corpus turn is mirrored, the baseline (the digest) is
// measured in the same run, and the writes per turn follow each face's way of writing structure.
import { describe, expect, it } from 'vitest';
import { CAPTURE_CORPUS } from './capture-cost-bench.js';
import { measureMirrorCost, MIRROR_BENCH_NAME } from './mirror-cost-bench.js';

describe('measureMirrorCost', () => {
  it('reports the mirror’s bytes per turn against the digest’s, and writes per turn on each face', async () => {
    const result = await measureMirrorCost(CAPTURE_CORPUS.slice(0, 2));
    expect(result.name).toBe(MIRROR_BENCH_NAME);
    expect(result.value).toBeGreaterThan(0);
    expect(result.baseline).toBeGreaterThan(0);
    expect(result.ratio).toBeCloseTo(result.value / result.baseline, 2);
    const details = result.details ?? {};
    expect(details['mirror_writes_per_turn_mcp_main']).toBeGreaterThanOrEqual(2); // the episode and at least HAS_TURN
    expect(details['mirror_writes_per_turn_rest']).toBeGreaterThanOrEqual(3); // the episode, the conversation and the turn
    expect(Number(details['digest_writes_per_turn'])).toBeGreaterThan(0);
  }, 120_000);
});
