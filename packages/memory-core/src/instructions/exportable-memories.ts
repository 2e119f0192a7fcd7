// Which memories an instruction file may hold: the workspace's promoted memories (and the team's
// verified ones) of the kinds a file lists, from the local tier; never captured chat, never one the
// secret guard flags (left out whole, never half written). Shared by `graphiti-harness export` and
// the extension's Export command, so both write the same file.
import type { SecretGuard } from '../secrets/secret-guard.js';
import type { TierContent } from '../tier/tier-content.js';
import { INSTRUCTION_KINDS, type CuratedMemory } from './instruction-section.js';

export async function exportableMemories(tier: TierContent | undefined, guard: SecretGuard): Promise<CuratedMemory[]> {
  const kinds = new Set<string>(INSTRUCTION_KINDS.map(([kind]) => kind));
  const candidates = (tier?.promoted ?? []).filter((promotion) => kinds.has(promotion.kind) && (promotion.scope === 'workspace' || (promotion.scope === 'team' && promotion.unverified !== true)));
  const guarded = await Promise.all(
    candidates.map(async (promotion): Promise<CuratedMemory | undefined> => {
      const scan = await guard.redact(promotion.text).catch(() => undefined);
      // What the guard could not scan, or a text the tier already redacted, is left out.
      if (scan === undefined || scan.findings.length > 0 || promotion.text.includes('[REDACTED')) return undefined;
      return { kind: promotion.kind, text: promotion.text, createdAt: promotion.createdAt };
    }),
  );
  return guarded.filter((memory): memory is CuratedMemory => memory !== undefined);
}
