// Public entry of @graphiti-memory/memory-core: the ports an app binds, the tokens and interfaces
// of the services createMemoryModule() binds, settings, errors, transcript parsing and the
// in-memory stores. Implementations the module binds (the Default* services, the secretlint guard)
// and helpers (hashing, wire-time formatting, mapping) stay inside. One line per file, sorted by
// path; index.test.ts pins the list, so a new export is a reviewed change.
export { AUDIT_TOOLS, auditEndpointKey, auditEntryFrom, AuditLog, filterAuditEntries, InMemoryAuditLog, type AuditEntry, type AuditFace, type AuditQuery, type AuditTool } from './audit/audit-log.js';
export { auditedConnection, type AuditTarget } from './audit/audited-graphiti-api.js';
export { SystemClock, type SystemClockOptions } from './clock/system-clock.js';
export { editedMemory, MemoryEditing, type MemoryEdit, type MemoryEditOutcome, type StoredMemory } from './editing/memory-editing.js';
export {
  describeGraphitiFailure,
  type FailureAdvice,
  type FailureContext,
  type FailureDescription,
} from './errors/describe-graphiti-failure.js';
export { parseDirectives, type MemoryDirective } from './directives/index.js';
export { classifyGraphitiError, errorClassOf, type GraphitiFailure, type GraphitiFailureKind } from './errors/graphiti-failure.js';
export { forgetEpisode, type EpisodeForgetApi, type EpisodeForgetOptions, type EpisodeForgetResult } from './forget/episode-forgetting.js';
export { ForgetLedger, forgottenContentKey, forgottenTurnKey, InMemoryForgetLedger, MAX_FORGOTTEN_TURNS, withForgottenGroups, type ForgetRecord, type ForgottenGroup } from './forget/forget-ledger.js';
export type { ForgetRequest, ForgetTarget } from './forget/forget-policy.js';
export { ForgetService, sourceForgetSummary, type ForgetFailure, type ForgetResult, type SourceForgetResult } from './forget/forget-service.js';
export { OwedDeletions, type OwedDeletionsResult } from './forget/owed-deletions.js';
export { QueuedGroups } from './forget/queued-groups.js';
export {
  categoriesInUse,
  CONSENT_CATEGORIES,
  consentCovers,
  inertCategories,
  isConsentCategory,
  type ConsentCategory,
} from './gate/consent-categories.js';
export { MemoryGate, type GateClosedReason, type GateDecision } from './gate/memory-gate.js';
export { deliveryNotice, LONG_WAIT_MS, type DeliveryCounts, type DeliveryNotice, type NoticeAudience } from './ingestion/delivery-notice.js';
export { InMemoryDeliveryLedger } from './ingestion/in-memory-delivery-ledger.js';
export { openedIngestionStorage } from './ingestion/in-memory-ingestion-storage.js';
export { InMemoryOutbox, type OutboxLimits } from './ingestion/in-memory-outbox.js';
export { IngestionOptions } from './ingestion/ingestion-options.js';
export { IngestionService } from './ingestion/ingestion-service.js';
export type { ConfirmationResult, IngestionCounters, IngestionState, IngestionStats } from './ingestion/ingestion-stats.js';
export { Ingestion } from './ingestion/ingestion.js';
export { exportableMemories } from './instructions/exportable-memories.js';
export { InstructionImports } from './instructions/instruction-imports.js';
export { inferInstructionKind, INSTRUCTION_KINDS, INSTRUCTION_SECTION_END, INSTRUCTION_SECTION_START, instructionLines, lineEndingOf, renderInstructionSection, replaceInstructionSection, type CuratedMemory, type InstructionLine, type SectionReplacement } from './instructions/instruction-section.js';
export { parseLoopMarkers, type LoopMarker } from './loops/loop-markers.js';
export { boundedLoops, DEFAULT_LOOP_EXPIRE_DAYS, describeLoop, isStaleLoop, loopNudges, type LoopNudges } from './loops/loop-policy.js';
export { loopProposalPrompt, parseLoopProposal, type LoopProposal } from './loops/loop-proposal-format.js';
export { LoopProposals, proposalText, type ClosedSessionDigest, type LoopProposalOutcome } from './loops/loop-proposals.js';
export { DEFAULT_LOOP_PROPOSAL_OPTIONS, LoopProposalOptions, LoopProposer, type LoopProposalAnswer, type LoopProposalRequest } from './loops/loop-proposer.js';
export { LoopService, type LoopClosing, type LoopProposalApplied, type LoopProposalMiss } from './loops/loop-service.js';
export { LoopStore, type LoopEvidence, type LoopStatus, type OpenLoop } from './loops/open-loop.js';
export { createInMemoryStorageModule, createMemoryModule, createRecallModule } from './memory-module.js';
export { TurnPlanner } from './planning/turn-planner.js';
export {
  Clock,
  ConsentStore,
  GlobalStore,
  GraphitiConnection,
  IngestionStorage,
  Logger,
  SCOPE_ORDER,
  SettingsSource,
  TelemetrySink,
  WorkspaceContext,
  WorkspaceStore,
  type ChatTurn,
  type ConsentRecord,
  type DeadLetter,
  type DeliveryLedger,
  type GitMetadata,
  type GraphitiApi,
  type GraphitiCallOptions,
  type IngestionStore,
  type KeyValueStore,
  type LogFields,
  type MarkPendingOptions,
  type MemoryEvent,
  type MemoryScope,
  type Outbox,
  type OutboxAdmitResult,
  type OutboxAppendResult,
  type OutboxDropReason,
  type OutboxEntry,
  type OutboxRecord,
  type RecalledFact,
  type FactSource,
  type MessageSource,
} from './ports.js';
export { isPromotionKind, PROMOTION_KINDS, type PromotionKind, type PromotionScope } from './promotion/episode-format.js';
export { MemoryPromotion, type PromotionOutcome } from './promotion/memory-promotion.js';
export {
  PromotionService,
  type PromotionPlan,
  type PromotionRefusal,
  type PromotionRequest,
} from './promotion/promotion-service.js';
export { annotateFacts, type FactAnnotationPorts } from './recall/fact-annotation.js';
export { isSuperseded, normaliseFactText } from './recall/fact-merging.js';
export { guardRecalledFacts } from './recall/recalled-fact-guard.js';
export { MAX_RECALL_QUERY_CHARS, RECALL_QUERY_GAP_MARKER, RECALL_QUERY_HEAD_CHARS, RECALL_QUERY_TAIL_CHARS, recallQueryOf } from './recall/recall-query.js';
export { isOwnTeamPromotion } from './recall/team-authors.js';
export {
  factContentHash,
  InMemorySaidOnceStore,
  NOTHING_SAID,
  parseSaidInSession,
  SAID_ONCE_BOUNDS,
  SaidOnceStore,
  saidTextHash,
  unsaidFacts,
  withSaid,
  type SaidFact,
  type SaidInSession,
  type SaidMemory,
  type SaidOnceRecordOptions,
} from './recall/said-once.js';
export {
  RecallService,
  type RecallError,
  type RecallOptions,
  type RecallOutcomeKind,
  type RecallResult,
  type RecallSkipReason,
} from './recall/recall-service.js';
export { GroupRecorder, GroupRecorderOptions, type AcceptedEntry } from './registry/group-recorder.js';
export { GroupRegistry, mergeGroupWrite, sortGroupRecords, type GroupRecord, type GroupWrite } from './registry/group-registry.js';
export { InMemoryGroupRegistry } from './registry/in-memory-group-registry.js';
export { InMemoryPendingMemoryStore } from './review/in-memory-pending-memory-store.js';
export { describePendingSource, forgottenWith, pendingGroups, PendingMemoryStore, type PendingForget, type PendingLoop, type PendingMemory, type PendingMemorySource } from './review/pending-memory-store.js';
export { describeLoopProposalMiss, FORGOTTEN_PENDING_REASON, ReviewQueue, type ProposedMemory, type ProposeOutcome, type ReviewOutcome } from './review/review-queue.js';
export { GroupIdResolver, USER_KEY_STORAGE_KEY, type ResolvedGroup, type ScopeContext } from './scopes/group-id-resolver.js';
export { hashedGroupId, normaliseGitRemote, rawGroupId } from './scopes/group-ids.js';
export { SecretGuard, type RedactionFinding, type RedactionResult } from './secrets/secret-guard.js';
export { foldForReading, neutraliseBlockTags, sanitiseReadableLine, sanitiseReadableText } from './text/reading-text.js';
export { asEpisodeSource, EpisodeSources, forgottenSource, MAX_SOURCE_CONTENTS, type EpisodeSource } from './sources/episode-sources.js';
export { InMemoryEpisodeSources } from './sources/in-memory-episode-sources.js';
export { runSmokeTest, type SmokeTestOptions, type SmokeTestResult } from './smoke/smoke-test.js';
export { MAX_STALE_CHECKS, pathsNamedIn } from './stale/stale-paths.js';
export { STALE_SETTINGS, WorkspaceFiles, type StaleSetting } from './stale/workspace-files.js';
export { DEFAULT_ENDPOINT, endpointProblem, normaliseEndpoint } from './settings/endpoint.js';
export { ConfiguredMemorySettings, MemoryConfiguration, type CheckedSettingsSource } from './settings/memory-configuration.js';
export {
  describeDirectiveHandling,
  directiveHandling,
  type DirectiveHandling,
  DEFAULT_SETTINGS,
  GROUP_ID_STRATEGIES,
  INGEST_SCOPE_SETTINGS,
  memorySettingsSchema,
  parseMemorySettings,
  RECALL_SCOPE_SETTINGS,
  SERVER_KIND_SETTINGS,
  SETTING_BOUNDS,
  SETTINGS_SECTION,
  type GroupIdStrategy,
  type IngestScopeSetting,
  type MemorySettings,
  type MemorySettingsParseResult,
  type RecallScopeSetting,
  type ServerKindSetting,
} from './settings/memory-settings.js';
export { LocalTier, TIER_STALE_MS, tierView, type TierViewOptions, type BriefOptions, type BriefPromotion, type CachedRecall, type CachedRecallOptions, type TierBrief } from './tier/local-tier.js';
export { InMemoryLocalTierStore, LocalTierStore, type TierKey } from './tier/local-tier-store.js';
export type { TierBridge } from './tier/tier-bridge.js';
export { refreshTier } from './tier/tier-refresh.js';
export { BRIEF_KINDS, cachedLabel, describeAge, emptyTier, factsMatching, parseTier, withoutGroups, withPromotion, withRecalledFacts, withRefresh, withSession, withoutEpisodes, type TierGroups, type TierRefresh, type TierContent, type TierFact, type TierPromotion, type TierSession } from './tier/tier-content.js';
export {
  AGENT_TRANSCRIPT_FORMATS,
  agentLabelOf,
  agentTranscriptFormatOf,
  readAgentTranscript,
  type AgentTranscriptFormat,
  type AgentTranscriptReadOptions,
} from './transcripts/agent-transcripts.js';
export { parseClaudeCodeTranscript, type ClaudeCodeTranscriptOptions } from './transcripts/claude-code-transcript.js';
export {
  isCopilotAgentTranscript,
  parseCopilotAgentTranscript,
  type CopilotAgentTranscriptOptions,
  type CopilotAgentTranscriptResult,
} from './transcripts/copilot-agent-transcript.js';
export { parseJsonlTranscript, type JsonlTranscriptOptions } from './transcripts/jsonl-transcript.js';
export {
  DEFAULT_TRANSCRIPT_FILTER,
  resolveTranscriptFilter,
  TRANSCRIPT_FILTER_PRESETS,
  type FilterMode,
  type TranscriptFilter,
  type TranscriptFilterOption,
  type TranscriptFilterPreset,
} from './transcripts/transcript-filter.js';
export { createTranscriptReader, detectTranscriptFormat, parseTranscript, type TranscriptOptions } from './transcripts/transcript-format.js';
export {
  tokenEstimate,
  TRANSCRIPT_FORMATS,
  type TokenReduction,
  type TranscriptFormat,
  type TranscriptParseResult,
  type TranscriptReader,
} from './transcripts/transcript-types.js';
export { parseVsCodeChatSession, type VsCodeChatSessionOptions } from './transcripts/vscode-chat-session.js';
// The team scope (issue 21): who can read it, how its facts are labelled, what may be written there.
export { isPromotionScope, parsePromotionEpisode, PROMOTION_SCOPES, scopeLabel } from './promotion/episode-format.js';
export { isTeamGroupId } from './scopes/team-scope.js';
export { MEMORY_SCOPES, TEAM_AUDIENCE, type RecallScopesSetting } from './settings/memory-settings.js';
export { legacySessionGroupId, legacyWorkspaceGroupId } from './scopes/legacy-group-ids.js';
export { deliveryKey } from './ingestion/in-memory-delivery-ledger.js';
export { UserKeyReadiness } from './scopes/group-id-resolver.js';
export {
  digestMaxChars,
  digestMessage,
  digestMessageName,
  DIGEST_SPEAKER,
  InMemoryDigestSegmentStore,
  isDigestMessageName,
  type DigestSegment,
  type DigestSegmentChange,
  type DigestSegmentStore,
  type DigestTurn,
} from './digest/index.js';
export { CAPTURE_GRANULARITIES, type CaptureGranularity } from './settings/memory-settings.js';
// Digests written by the host's chat model (issue 22: `capture.digestWriter: chatModel`, VS Code only).
export {
  CHAT_MODEL_DIGEST_NOTE,
  DigestWriter,
  digestWriterOf,
  DigestWriting,
  DigestWritingOptions,
  type DigestWriteMiss,
  type DigestWriteRequest,
  type DigestWriteResult,
} from './digest/index.js';
export { DIGEST_MODEL_MAX_CHARS, DIGEST_WRITERS, type DigestWriterSetting } from './settings/memory-settings.js';
export { digestWritersText } from './audit/index.js';
// Per-kind transcript filter modes in the configuration (issue 22), and the filter for turns no parser read.
export { FILTER_KINDS, FILTER_MODES, filterTurn, transcriptFilterProblems, type TranscriptFilterProblem } from './transcripts/transcript-filter.js';
// A turn episode's name read back (the memory view groups a turn's question and answer by it).
export { parseTurnMessageName, type TurnMessageName } from './mapping/turn-mapping.js';
export * from './mirror/index.js';
export { MIRROR_CONSENT_TEXT } from './gate/consent-categories.js';
