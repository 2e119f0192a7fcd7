// Fault injection. One seeded die per emulator, one roll per request, so a seed replays the same
// faults for the same sequence of requests.
import { randomInt } from 'node:crypto';
import type { FaultPlan, FaultSettings, InjectedFault, RouteName } from './types.js';

export interface FaultDecision {
  readonly latencyMs: number;
  readonly fault: InjectedFault | null;
  readonly errorStatus: number;
  readonly retryAfterSeconds: number | undefined;
}

/** mulberry32: tiny, fast and good enough for test dice. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultInjector {
  private plan: FaultPlan;
  private readonly random: () => number;

  constructor(plan: FaultPlan = {}, seed: number = randomInt(2 ** 31)) {
    this.plan = plan;
    this.random = seededRandom(seed);
  }

  setPlan(plan: FaultPlan): void {
    this.plan = plan;
  }

  /** A route's own settings override the `'*'` ones field by field. Unknown paths get `'*'`. */
  settingsFor(route: RouteName | null): FaultSettings {
    return { ...this.plan['*'], ...(route === null ? {} : this.plan[route]) };
  }

  decide(route: RouteName | null): FaultDecision {
    const settings = this.settingsFor(route);
    const resetRate = settings.resetRate ?? 0;
    const hangRate = settings.hangRate ?? 0;
    const errorRate = settings.errorRate ?? 0;
    let fault: InjectedFault | null = null;
    if (resetRate + hangRate + errorRate > 0) {
      const roll = this.random();
      if (roll < resetRate) fault = 'reset';
      else if (roll < resetRate + hangRate) fault = 'hang';
      else if (roll < resetRate + hangRate + errorRate) fault = 'error';
    }
    return {
      latencyMs: Math.max(0, settings.latencyMs ?? 0),
      fault,
      errorStatus: settings.errorStatus ?? 500,
      retryAfterSeconds: settings.retryAfterSeconds,
    };
  }
}
