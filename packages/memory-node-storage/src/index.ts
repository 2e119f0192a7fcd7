// Public entry of @graphiti-memory/memory-node-storage. Keep this list sorted.
export * from './config/index.js';
export { adoptAuditLog, DEFAULT_AUDIT_MAX_BYTES, FileAuditLog, type FileAuditLogOptions } from './audit/file-audit-log.js';
export { FileIngestionStorage, type FileIngestionStorageOptions, type OutboxLocation } from './composition/file-ingestion-storage.js';
export { createNodeStorageModule, type NodeStorageModuleOptions } from './composition/node-storage-module.js';
export { FileForgetLedger, type FileForgetLedgerOptions } from './forget/file-forget-ledger.js';
export { FileOutbox, type FileOutboxOptions, type FileOutboxStats, type OutboxRecovery } from './outbox/file-outbox.js';
export { relocateOutboxJournals } from './outbox/journal-relocation.js';
export { readOutboxSummary } from './outbox/outbox-summary.js';
export { ENDPOINT_RECORD_FILE, readEndpointRecord, recordConfirmation, recordEndpoint, type EndpointRecord } from './outbox/endpoint-record.js';
export { moveOnEndpointChange, moveQueuedRecords, otherEndpointOutboxes, type EndpointChange, type EndpointOutbox, type OutboxMove } from './outbox/endpoint-outboxes.js';
export { FileGroupRegistry, type FileGroupRegistryOptions } from './registry/file-group-registry.js';
export { FileEpisodeSources, MAX_EPISODE_SOURCES, type FileEpisodeSourcesOptions } from './sources/file-episode-sources.js';
export { NodeWorkspaceFiles } from './stale/node-workspace-files.js';
export { FileInstructionLedger, type ImportedLine } from './instructions/file-instruction-ledger.js';
export { FileLoopStore, type FileLoopStoreOptions } from './loops/file-loop-store.js';
export { adoptPendingMemories, FilePendingMemoryStore, type FilePendingMemoryStoreOptions } from './review/file-pending-memory-store.js';
export { CONSENT_KEY, FileConsentStore, type FileConsentStoreOptions } from './stores/file-consent-store.js';
export {
  defaultStateDirectory,
  endpointStateDirectory,
  endpointStateFiles,
  sharedStateDirectory,
  sharedStateFiles,
  STATE_DIRECTORY_VARIABLE,
  stateLayout,
  tierFile,
  transcriptLedgerFile,
  saidOnceDirectory,
  saidOnceFile,
  type EndpointStateFiles,
  type SharedStateFiles,
  type StateLayout,
  configuredStateDirectory,
  stateDirectoryOf,
  type StateFolderSources,
} from './state/state-layout.js';
export {
  closedBySwitches,
  FileMemorySwitches,
  NO_SWITCHES,
  WORKSPACE_SWITCHES,
  type FileMemorySwitchesOptions,
  type MemorySwitchesRead,
  type MemorySwitchesRecord,
  type SwitchClosure,
  type SwitchMark,
  type SwitchTarget,
  type WorkspaceSwitch,
} from './state/memory-switches.js';
export { assertStateFolderOurs, StateFolderRefusal, stateFolderRefusal } from './state/state-folder-owner.js';
export { SwitchedConsentStore, type SwitchedConsentStoreOptions } from './state/switched-consent-store.js';
export { FileDeliveryLedger } from './stores/file-delivery-ledger.js';
export { FileSaidOnceStore, type FileSaidOnceStoreOptions } from './stores/file-said-once-store.js';
export { FileKeyValueStore, type FileKeyValueStoreOptions, type StoreRecovery } from './stores/file-key-value-store.js';
export { DamagedStateFileError, LockedJsonFile, PRIVATE_FILE_MODE, type LockedJsonFileOptions } from './stores/locked-json-file.js';
export { makePrivateFolder, PRIVATE_DIRECTORY_MODE, tightenStateFolder } from './stores/private-folder.js';
export { appendPrivateFile } from './stores/private-folder.js';
export { isStorageFaultCode, storageFaultOf, StorageWriteError, type StorageFault } from './stores/storage-fault.js';
export { FileLocalTierStore } from './tier/file-local-tier-store.js';
export { defaultClaudeCodeProjectsFolder } from './transcripts/default-folders.js';
export { copyTakenIds, FileTranscriptLedger, type FileTranscriptLedgerOptions } from './transcripts/file-transcript-ledger.js';
export { checkPathUnderRoot, type PathCheck, type PathRefusal } from './transcripts/path-guard.js';
export {
  FileReadRefusal,
  readSafeTextFile,
  readSafeTextFileSync,
  SAFE_READ_MAX_BYTES,
  type FileReadRefusalReason,
  type SafeFileReadOptions,
} from './files/safe-file-read.js';
export {
  TranscriptWatcher,
  type SessionIdleEvent,
  type TranscriptFileResult,
  type TranscriptWatcherOptions,
} from './transcripts/transcript-watcher.js';
export { DIGEST_SEGMENTS_FILE, FileDigestSegmentStore } from './digest/file-digest-segment-store.js';
export { FileServerFaceRecord, type RememberedServerFace } from './stores/file-server-face-record.js';
