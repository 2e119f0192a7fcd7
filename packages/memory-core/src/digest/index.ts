/**
 * Session digests (`capture.granularity: session`, the default): ingestion gathers a session's turn
 * messages per group into an open segment (`DigestSegmentStore`, durable beside the outbox) and
 * sends it as one digest episode when the session ends, falls idle or reaches `digestTurns`.
 */
export { DIGEST_SPEAKER, digestMaxChars, digestMessage, digestMessageName, isDigestMessageName } from './digest-format.js';
export { InMemoryDigestSegmentStore, type DigestSegment, type DigestSegmentChange, type DigestSegmentStore, type DigestTurn } from './digest-segment-store.js';
