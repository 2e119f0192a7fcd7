// Which writes Graphiti refused, as the harness saw them: the client memory-core sends through is
// watched for answers that are a refusal (an HTTP status: 422 invalid, 500 failed, …), so a
// command can say "refused, with 500" instead of "not confirmed" (which reads as "maybe later").
// Connection failures and timeouts are not refusals: nothing answered.
import type { GraphitiApi } from '@graphiti-memory/graphiti-client';
import { classifyGraphitiError } from '@graphiti-memory/memory-core';
import { describeGraphitiFailure } from '../terminal/describe-error.js';

export interface WriteRefusal {
  /** The HTTP status Graphiti answered with. */
  readonly status: number;
  /** What failed, at which URL, with the server's answer (no content of ours). */
  readonly message: string;
  /** How many writes were refused during this command. */
  readonly count: number;
}

/** The writes memory-core makes (episodes and promoted memories). */
const WRITE_METHODS: ReadonlySet<PropertyKey> = new Set(['addMessages', 'addEntityNode']);

export interface WatchedClient {
  readonly client: GraphitiApi;
  /** The last refusal of a write, if any. */
  lastRefusal(): WriteRefusal | undefined;
}

/** `client`, with every refused write remembered (the call still fails as before). */
export function watchWriteRefusals(client: GraphitiApi, url: string): WatchedClient {
  let last: WriteRefusal | undefined;
  const watched = new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (!WRITE_METHODS.has(property)) return (value as (...args: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]) => {
        try {
          return await (value as (...args: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (error) {
          const { status } = classifyGraphitiError(error);
          if (status !== undefined) {
            last = { status, message: describeGraphitiFailure(error, url, 'Writing to Graphiti').message, count: (last?.count ?? 0) + 1 };
          }
          throw error;
        }
      };
    },
  });
  return { client: watched, lastRefusal: () => last };
}
