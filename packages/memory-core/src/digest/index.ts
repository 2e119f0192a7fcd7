/**
 * Session digests (`capture.granularity: session`, the default): ingestion gathers a session's turn
 * messages per group into an open segment (`DigestSegmentStore`, durable beside the outbox) and
 * sends it as one digest episode when the session ends, falls idle or reaches `digestTurns`.
 */
export { DIGEST_SPEAKER, digestMaxChars, digestMessage, digestMessageName, isDigestMessageName } from './digest-format.js';
export { InMemoryDigestSegmentStore, type DigestSegment, type DigestSegmentChange, type DigestSegmentStore, type DigestTurn } from './digest-segment-store.js';
export {
  CHAT_MODEL_DIGEST_NOTE,
  DEFAULT_DIGEST_WRITING_OPTIONS,
  DigestWriter,
  digestWriterOf,
  DigestWritingOptions,
  type DigestWriteMiss,
  type DigestWriteRequest,
  type DigestWriteResult,
} from './digest-writer.js';
export { DigestWriting, type DigestDraft } from './digest-writing.js';
