// Recalled text is data: a secret that reached the graph (stored before a rule knew its shape, or
// written by another client) must not be shown again in a prompt, a terminal or the local tier.
import type { SecretGuard } from '../secrets/secret-guard.js';

/**
 * Each fact with its text passed through the secret guard. Fails closed: a fact the guard could
 * not scan is left out rather than shown unscanned. Order and every other field are kept.
 */
export async function guardRecalledFacts<Fact extends { readonly fact: string }>(
  guard: SecretGuard,
  facts: readonly Fact[],
): Promise<Fact[]> {
  const guarded = await Promise.all(
    facts.map(async (fact) => {
      try {
        const { text } = await guard.redact(fact.fact);
        return text === fact.fact ? fact : { ...fact, fact: text };
      } catch {
        return undefined;
      }
    }),
  );
  return guarded.filter((fact): fact is Awaited<Fact> & Fact => fact !== undefined);
}
