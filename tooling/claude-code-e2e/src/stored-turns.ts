// What the emulator stored of the captured turns (processed episodes named as capture names them),
// and the wait for it: shared by every real-client e2e.
import type { RunningEmulator } from '@graphiti-memory/graphiti-emulator';
import { isCapturedEpisodeName, TURN_EPISODE_NAME } from './deliveries.js';
import { sleep, waitFor } from './sandbox.js';

/** Turn messages stored by the emulator (processed episodes), as `group name` keys with their counts. */
export function storedTurnCounts(emulator: RunningEmulator): Map<string, number> {
  const counts = new Map<string, number>();
  for (const episode of emulator.state.episodes()) {
    if (!isCapturedEpisodeName(episode.name)) continue;
    const key = `${episode.group_id} ${episode.name}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

export const distinctNames = (keys: Iterable<string>): Set<string> => new Set([...keys].map((key) => key.split(' ')[1] ?? key));

/** Waits until `count` distinct turn messages are stored and the emulator is idle; then a short settle for late duplicates. */
export async function waitForStoredTurns(emulator: RunningEmulator, count: number, timeoutMs: number): Promise<boolean> {
  const reached = await waitFor(() => (distinctNames(storedTurnCounts(emulator).keys()).size >= count && emulator.state.queueLength() === 0 ? true : undefined), timeoutMs, 200);
  await sleep(1_500);
  return reached === true;
}

/** Per stored turn, what is there: `<turn id>: user+assistant`, or the role that never arrived. */
export function describeStoredTurns(emulator: RunningEmulator): string {
  const roles = new Map<string, Set<string>>();
  const names = distinctNames(storedTurnCounts(emulator).keys());
  const digests = [...names].filter((name) => name.includes('.digest.'));
  for (const name of names) {
    const [, turnId, role] = TURN_EPISODE_NAME.exec(name) ?? [];
    if (turnId !== undefined && role !== undefined) roles.set(turnId, (roles.get(turnId) ?? new Set()).add(role));
  }
  const turns = [...roles].map(
    ([turnId, seen]) => `turn ${turnId.slice(0, 8)}: ${seen.size === 2 ? 'user+assistant' : `${[...seen].join('')} only (${['user', 'assistant'].filter((role) => !seen.has(role)).join('')} never sent)`}`,
  );
  return [...digests.map((name) => `digest ${name.split('.').slice(-2).map((part) => part.slice(0, 8)).join('/')}`), ...turns].join('; ') || 'nothing stored';
}
