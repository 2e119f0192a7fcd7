// What each endpoint's outbox holds, and moving it to another endpoint. Each endpoint folder of the
// state folder names its URL (`endpoint.json` in its outbox: written when an outbox opens there)
// and whether that endpoint ever confirmed a delivery (the first confirmation records it; an earlier
// version's folder counts as confirmed when it holds delivered episodes' sources). When the
// endpoint changes (`hooks install`, `setup`, `config set endpoint`, the extension's Connect), what
// waits at an endpoint that never confirmed anything — a typo, a wrong port, https for http — moves
// to the new one (`moveOnEndpointChange`); what waits at one that did stays, and the caller names
// `graphiti-harness outbox move --from URL` (`moveQueuedRecords`).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { normaliseEndpoint } from '@graphiti-memory/memory-core';
import { FileDigestSegmentStore } from '../digest/file-digest-segment-store.js';
import { endpointStateFiles, sharedStateFiles } from '../state/state-layout.js';
import { copyTakenIds } from '../transcripts/file-transcript-ledger.js';
import { readEndpointRecord, recordEndpoint } from './endpoint-record.js';
import { FileOutbox } from './file-outbox.js';
import { JOURNAL_FILE_PATTERN } from './journal-adoption.js';
import { relocateOutboxJournals } from './journal-relocation.js';

/** One endpoint's outbox, as seen from the state folder. */
export interface EndpointOutbox {
  /** The endpoint's URL; `undefined` for a folder no version recorded it in. */
  readonly url: string | undefined;
  readonly outboxDirectory: string;
  /** Records waiting (queued, or sent and not confirmed). */
  readonly queued: number;
  readonly deadLetters: number;
  /** Open digest segments (taken turns not yet sent as a digest). */
  readonly openSegments: number;
  /** The endpoint confirmed a delivery (its queue is its own: it is never moved without asking). */
  readonly confirmed: boolean;
}

/** Every endpoint outbox of the state folder but `except`'s, with what it holds. */
export async function otherEndpointOutboxes(stateDirectory: string, except: string): Promise<EndpointOutbox[]> {
  const root = path.join(sharedStateFiles(stateDirectory).root, 'endpoints');
  const own = path.resolve(endpointStateFiles(stateDirectory, except).outboxDirectory);
  const folders = await fs.readdir(root).catch(() => [] as string[]);
  const found: EndpointOutbox[] = [];
  for (const folder of folders.sort()) {
    const outboxDirectory = path.join(root, folder, 'outbox');
    if (path.resolve(outboxDirectory) === own) continue;
    const held = await outboxContents(outboxDirectory);
    if (held === undefined) continue;
    const record = await readEndpointRecord(outboxDirectory);
    const delivered = await hasDeliveredSources(path.join(root, folder));
    found.push({ url: record?.url, outboxDirectory, ...held, confirmed: record?.confirmedAt !== undefined || delivered });
  }
  return found;
}

/** What a move carried. */
export interface OutboxMove {
  readonly from: string;
  readonly to: string;
  /** Records now queued at `to` (dead letters included: retry them there). */
  readonly records: number;
  readonly deadLetters: number;
  readonly openSegments: number;
  /** Journals a live process still held at `from` (a running drainer): moved by a later move. */
  readonly journalsLeft: number;
}

/**
 * Moves what waits in `from`'s outbox (journals, dead letters, open digest segments) to `to`'s, and
 * counts the transcript turns `from` took as taken for `to`, so nothing is lost and nothing is
 * captured twice. Group ids do not depend on the endpoint: the records go unchanged.
 */
export async function moveQueuedRecords(stateDirectory: string, from: string, to: string): Promise<OutboxMove> {
  const source = normaliseEndpoint(from) ?? from;
  const target = normaliseEndpoint(to) ?? to;
  const fromDirectory = endpointStateFiles(stateDirectory, source).outboxDirectory;
  const toDirectory = endpointStateFiles(stateDirectory, target).outboxDirectory;
  if (path.resolve(fromDirectory) === path.resolve(toDirectory)) return { from: source, to: target, records: 0, deadLetters: 0, openSegments: 0, journalsLeft: 0 };
  // Sent to `from` is not sent to `to`: what waited for `from`'s confirmation goes as not sent yet.
  const held = (await outboxContents(fromDirectory, { unsend: true })) ?? { queued: 0, deadLetters: 0, openSegments: 0 };
  await recordEndpoint(toDirectory, target);
  // The turns first: once the records are at `to`, its next Stop must not take them again.
  await copyTranscriptLedgers(stateDirectory, source, target);
  await relocateOutboxJournals(fromDirectory, toDirectory);
  const openSegments = await moveSegments(fromDirectory, toDirectory);
  const journalsLeft = (await fs.readdir(fromDirectory).catch(() => [] as string[])).filter((name) => JOURNAL_FILE_PATTERN.test(name)).length;
  return { from: source, to: target, records: held.queued + held.deadLetters, deadLetters: held.deadLetters, openSegments, journalsLeft };
}

/** What an endpoint change did: moved from endpoints that never confirmed, kept at those that did. */
export interface EndpointChange {
  readonly moved: readonly OutboxMove[];
  /** Queues left where they are (their endpoint confirmed deliveries, or its URL is unknown). */
  readonly kept: readonly EndpointOutbox[];
}

/**
 * The endpoint is now `to`: what waits at an endpoint that never confirmed a delivery moves there;
 * the rest stays. `previous` names URLs of folders earlier versions did not record (the old
 * consent and endpoint), so their queues are found too.
 */
export async function moveOnEndpointChange(stateDirectory: string, to: string, previous: readonly (string | undefined)[] = []): Promise<EndpointChange> {
  const target = normaliseEndpoint(to) ?? to;
  for (const url of previous) {
    const known = url === undefined ? undefined : normaliseEndpoint(url);
    if (known === undefined || known === '' || known === target) continue;
    const outboxDirectory = endpointStateFiles(stateDirectory, known).outboxDirectory;
    if ((await readEndpointRecord(outboxDirectory)) === undefined && (await outboxContents(outboxDirectory)) !== undefined) await recordEndpoint(outboxDirectory, known);
  }
  const moved: OutboxMove[] = [];
  const kept: EndpointOutbox[] = [];
  for (const other of await otherEndpointOutboxes(stateDirectory, target)) {
    if (other.queued + other.deadLetters + other.openSegments === 0) continue;
    if (other.url === undefined || other.confirmed) kept.push(other);
    else moved.push(await moveQueuedRecords(stateDirectory, other.url, target));
  }
  return { moved, kept };
}

/**
 * What an outbox folder holds; `undefined` when there is no folder. Opening it takes over the
 * journals no live process holds (as any process does), and closing leaves them for the next.
 * `unsend`: records sent and waiting for confirmation go back to not sent (they move elsewhere).
 */
async function outboxContents(outboxDirectory: string, options: { readonly unsend?: boolean } = {}): Promise<{ queued: number; deadLetters: number; openSegments: number } | undefined> {
  const names = await fs.readdir(outboxDirectory).catch(() => undefined);
  if (names === undefined) return undefined;
  const openSegments = (await new FileDigestSegmentStore(outboxDirectory).read().catch(() => [])).reduce((sum, segment) => sum + segment.turns.length, 0);
  if (!names.some((name) => JOURNAL_FILE_PATTERN.test(name))) return { queued: 0, deadLetters: 0, openSegments };
  const outbox = await FileOutbox.open({ directory: outboxDirectory });
  try {
    if (options.unsend === true) outbox.markPending((await outbox.inFlight()).map((record) => record.id));
    const stats = outbox.stats();
    return { queued: stats.size, deadLetters: stats.deadLetters, openSegments };
  } finally {
    await outbox.close();
  }
}

/** Open digest segments of `from` join `to`'s; returns how many turns moved. */
async function moveSegments(fromDirectory: string, toDirectory: string): Promise<number> {
  const source = new FileDigestSegmentStore(fromDirectory);
  const taken = await source.update((segments) => ({ next: [], result: segments }));
  if (taken.length === 0) return 0;
  await new FileDigestSegmentStore(toDirectory).update((segments) => ({ next: [...segments, ...taken], result: undefined }));
  return taken.reduce((sum, segment) => sum + segment.turns.length, 0);
}

async function copyTranscriptLedgers(stateDirectory: string, from: string, to: string): Promise<void> {
  const folder = path.join(sharedStateFiles(stateDirectory).hooksDirectory, 'transcripts');
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  for (const name of names.filter((candidate) => candidate.endsWith('.json'))) await copyTakenIds(path.join(folder, name), from, to);
}

async function hasDeliveredSources(endpointFolder: string): Promise<boolean> {
  try {
    const raw = JSON.parse(await fs.readFile(path.join(endpointFolder, 'episode-sources.json'), 'utf8')) as { episodes?: unknown };
    return Array.isArray(raw.episodes) && raw.episodes.length > 0;
  } catch {
    return false;
  }
}
