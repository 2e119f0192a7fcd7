// What the emulator was asked to store, read from its request log on either face: REST
// `POST /messages` bodies and MCP `tools/call add_memory` calls, one delivery per message.
import type { RecordedRequest } from '@graphiti-memory/graphiti-emulator';

export interface Delivery {
  readonly groupId: string;
  /** The episode name: how the product recognises its own messages (`<app>.turn.<id>.<role>`). */
  readonly name: string;
  readonly content: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function restDeliveries(body: unknown): Delivery[] {
  if (!isRecord(body) || !Array.isArray(body.messages)) return [];
  const groupId = text(body.group_id);
  return body.messages.filter(isRecord).map((message) => ({ groupId, name: text(message.name), content: text(message.content) }));
}

function mcpDeliveries(body: unknown): Delivery[] {
  // A JSON-RPC body may be a batch.
  const calls = Array.isArray(body) ? body : [body];
  return calls.filter(isRecord).flatMap((call) => {
    const params = call.params;
    if (call.method !== 'tools/call' || !isRecord(params) || params.name !== 'add_memory' || !isRecord(params.arguments)) return [];
    const args = params.arguments;
    return [{ groupId: text(args.group_id), name: text(args.name), content: text(args.episode_body) }];
  });
}

/** Every message the emulator accepted for storage (answered 2xx), oldest first. */
export function deliveriesOf(requests: readonly RecordedRequest[]): Delivery[] {
  return requests
    .filter((request) => request.status >= 200 && request.status < 300 && request.method === 'POST')
    .flatMap((request) => (request.route === 'messages' ? restDeliveries(request.body) : request.route === 'add_memory' ? mcpDeliveries(request.body) : []));
}

/** How many times each `group_id` + name was delivered, keyed `group_id name`. */
export function countByGroupAndName(deliveries: readonly Delivery[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const delivery of deliveries) {
    const key = `${delivery.groupId} ${delivery.name}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The turn messages' episode names (`<app>.turn.<turn id>.<role>`), as the capture names them; captures the turn id and role. */
export const TURN_EPISODE_NAME = /\.turn\.([^.\s]+)\.(user|assistant)$/;

/** A session digest's episode name (`<app>.digest.<session id>.<first turn id>`): the default capture. */
export const DIGEST_EPISODE_NAME = /\.digest\.[^.\s]+\.[^.\s]+$/;

/** What capture sends: session digests (the default) or per-message episodes (`capture.granularity: turn`). */
export function isCapturedEpisodeName(name: string): boolean {
  return DIGEST_EPISODE_NAME.test(name) || TURN_EPISODE_NAME.test(name);
}
