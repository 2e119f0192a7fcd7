// The delivery line shown to the user at SessionStart (the brief's footer): dead letters and
// messages waiting over an hour, in memory-core's words (`deliveryNotice`). It goes out as the
// hook output's top-level `systemMessage`, which Claude Code and VS Code show to the user, never
// in `additionalContext` (the model's context). Bounded and fail-open: a slow or unreadable
// outbox costs the session nothing but the line.
import { deliveryNotice, type DeliveryNotice } from '@graphiti-memory/memory-core';
import { endpointStateFiles, readOutboxSummary } from '@graphiti-memory/memory-node-storage';
import type { HandlerResult } from './handler-result.js';

/** Longest SessionStart waits for the outbox to be read. */
const FOOTER_BOUND_MS = 150;

/** What to tell the user about the delivery of `endpoint`'s outbox in `stateDirectory` (hooks status, doctor, the footer). */
export async function endpointDeliveryNotice(stateDirectory: string, endpoint: string, options: { readonly maxAgeHours?: number; readonly now?: number } = {}): Promise<DeliveryNotice> {
  const now = options.now ?? Date.now();
  const counts = await readOutboxSummary(endpointStateFiles(stateDirectory, endpoint).outboxDirectory, now);
  return deliveryNotice({ ...counts, ...(options.maxAgeHours === undefined ? {} : { maxAgeHours: options.maxAgeHours }) }, now);
}

/** The footer line, or `undefined` (nothing to say, too slow, unreadable). Never throws. */
export async function deliveryFooter(stateDirectory: string, endpoint: string, maxAgeHours?: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), FOOTER_BOUND_MS);
    timer.unref();
  });
  try {
    const notice = await Promise.race([endpointDeliveryNotice(stateDirectory, endpoint, maxAgeHours === undefined ? {} : { maxAgeHours }).catch(() => undefined), late]);
    return notice?.line;
  } finally {
    clearTimeout(timer);
  }
}

/** `result` with the footer as its `systemMessage` (to the user only). */
export function withDeliveryFooter(result: HandlerResult, footer: string | undefined): HandlerResult {
  return footer === undefined ? result : { ...result, systemMessage: footer };
}
