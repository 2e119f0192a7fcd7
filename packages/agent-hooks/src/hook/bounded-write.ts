// Hooks answer under a deadline: a record they write on the way (what was said, the tier) is waited
// for only briefly. The write goes on; it is a cache or a hint, never the answer.

/** How long a hook waits for such a write before answering. */
const HOOK_WRITE_BOUND_MS = 150;

/** Waits for a write at most briefly, and never fails. */
export async function boundedTierWrite(write: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([write.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, HOOK_WRITE_BOUND_MS)))]);
  clearTimeout(timer);
}
