// A scripted `GraphitiApi` for unit tests that need exact control over answers and timing.
// Tests of behaviour against Graphiti's contract use the emulator over HTTP instead.
import type {
  AddMessagesRequest,
  Episode,
  FactResult,
  Healthcheck,
  Result,
  SearchQuery,
  SearchResults,
} from '@graphiti-memory/graphiti-client';
import type { GraphitiApi, GraphitiCallOptions } from '../src/ports.js';

export interface RecordedCall {
  readonly method: keyof GraphitiApi;
  readonly args: readonly unknown[];
}

export type SearchHandler = (query: SearchQuery, options: GraphitiCallOptions | undefined) => Promise<SearchResults>;

/** An error that aborted a call, shaped like the client's `GraphitiAbortError`. */
export class FakeAbortError extends Error {
  override readonly name = 'GraphitiAbortError';
  readonly retryable = false;
}

/** Resolves with `value` after `ms` real milliseconds, or rejects with `FakeAbortError` when `signal` aborts. */
export function delayed<T>(ms: number, value: T, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new FakeAbortError('aborted'));
      return;
    }
    const timer = setTimeout(() => resolve(value), ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new FakeAbortError('aborted'));
      },
      { once: true },
    );
  });
}

/** A fact as the server returns it, with defaults for the fields a test does not care about. */
export function fact(overrides: Partial<FactResult> & { uuid: string; fact: string }): FactResult {
  return {
    name: 'RELATES_TO',
    valid_at: null,
    invalid_at: null,
    created_at: '2026-01-01T00:00:00Z',
    expired_at: null,
    ...overrides,
  };
}

export class FakeGraphitiApi implements GraphitiApi {
  readonly calls: RecordedCall[] = [];
  searchHandler: SearchHandler = async () => ({ facts: [] });

  async healthcheck(options?: GraphitiCallOptions): Promise<Healthcheck> {
    this.calls.push({ method: 'healthcheck', args: [options] });
    return { status: 'healthy' };
  }
  async addMessages(request: AddMessagesRequest, options?: GraphitiCallOptions): Promise<Result> {
    this.calls.push({ method: 'addMessages', args: [request, options] });
    return { message: 'Messages added to processing queue', success: true };
  }
  search(query: SearchQuery, options?: GraphitiCallOptions): Promise<SearchResults> {
    this.calls.push({ method: 'search', args: [query, options] });
    return this.searchHandler(query, options);
  }
  async getEpisodes(groupId: string, query: { lastN: number }, options?: GraphitiCallOptions): Promise<Episode[]> {
    this.calls.push({ method: 'getEpisodes', args: [groupId, query, options] });
    return [];
  }
  async deleteEpisode(uuid: string, options?: GraphitiCallOptions): Promise<Result> {
    this.calls.push({ method: 'deleteEpisode', args: [uuid, options] });
    return { message: 'Episode deleted', success: true };
  }
  async deleteGroup(groupId: string, options?: GraphitiCallOptions): Promise<Result> {
    this.calls.push({ method: 'deleteGroup', args: [groupId, options] });
    return { message: 'Group deleted', success: true };
  }
}
