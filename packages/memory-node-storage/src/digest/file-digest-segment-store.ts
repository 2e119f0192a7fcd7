// The open segments of session digests in one JSON file beside the outbox journals
// (`<outbox folder>/digest-segments.json`), changed under a cross-process lock and written
// atomically with owner-only permissions. It holds what the outbox journal next to it would hold
// for the same turns (mapped, secret-guarded messages) and nothing more; a digest's turns leave it
// once the digest is in the outbox.
import type { DigestSegment, DigestSegmentChange, DigestSegmentStore, DigestTurn, Logger } from '@graphiti-memory/memory-core';
import path from 'node:path';
import { isRecord, LockedJsonFile } from '../stores/locked-json-file.js';

/** The file name of the segments in an outbox folder. */
export const DIGEST_SEGMENTS_FILE = 'digest-segments.json';

interface SegmentsFile {
  readonly segments: readonly DigestSegment[];
}

export class FileDigestSegmentStore implements DigestSegmentStore {
  readonly #file: LockedJsonFile<SegmentsFile>;

  /** `directory`: the outbox folder of the endpoint. */
  constructor(directory: string, logger?: Logger) {
    this.#file = new LockedJsonFile(path.join(directory, DIGEST_SEGMENTS_FILE), parseSegmentsFile, logger);
  }

  async read(): Promise<readonly DigestSegment[]> {
    return (await this.#file.read()).segments;
  }

  update<T>(change: (segments: readonly DigestSegment[]) => DigestSegmentChange<T>): Promise<T> {
    return this.#file.update((current) => {
      const { next, result } = change(current.segments);
      return { ...(next === undefined ? {} : { next: { segments: next } }), result };
    });
  }
}

/** Unreadable entries are skipped; a file that is not JSON is kept aside as `.corrupt` by the locked file. */
function parseSegmentsFile(raw: unknown): SegmentsFile {
  if (!isRecord(raw) || !Array.isArray(raw['segments'])) return { segments: [] };
  return { segments: raw['segments'].filter(isSegment) };
}

function isSegment(value: unknown): value is DigestSegment {
  return (
    isRecord(value) &&
    typeof value['groupId'] === 'string' &&
    typeof value['sessionId'] === 'string' &&
    typeof value['lastTurnAt'] === 'number' &&
    Array.isArray(value['turns']) &&
    value['turns'].every(isTurn)
  );
}

function isTurn(value: unknown): value is DigestTurn {
  return (
    isRecord(value) &&
    typeof value['id'] === 'string' &&
    Array.isArray(value['keys']) &&
    value['keys'].every((key) => typeof key === 'string') &&
    Array.isArray(value['messages']) &&
    value['messages'].every((message) => isRecord(message) && typeof message['content'] === 'string' && typeof message['role_type'] === 'string')
  );
}
