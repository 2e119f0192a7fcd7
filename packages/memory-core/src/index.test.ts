// The public surface of memory-core, pinned: adding or removing an export fails here until the list
// is updated, so each change to what library users and the apps can reach is a reviewed one.
// Values are read from the module as it loads; type-only exports from the compiler's view of it.
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as episodeFormat from './promotion/episode-format.js';
import * as memoryCore from './index.js';

const VALUES = [
  // The structured mirror (seed 001) and seed 000's extraction guidance.
  'CODING_ONTOLOGY_INSTRUCTIONS', 'MIRROR_CONSENT_TEXT', 'MIRROR_RECORD_FORMAT', 'TurnMirror', 'buildMirrorRecord', 'mirrorNodeUuid', 'mirrorStructure', 'writeMirrorEntry',
  'AGENT_TRANSCRIPT_FORMATS', 'agentLabelOf', 'agentTranscriptFormatOf', 'readAgentTranscript',
  'exportableMemories',
  'inferInstructionKind', 'InstructionImports', 'INSTRUCTION_KINDS', 'INSTRUCTION_SECTION_END', 'INSTRUCTION_SECTION_START', 'instructionLines', 'lineEndingOf', 'renderInstructionSection', 'replaceInstructionSection',
  'parseLoopMarkers', 'boundedLoops', 'DEFAULT_LOOP_EXPIRE_DAYS', 'describeLoop', 'isStaleLoop', 'loopNudges', 'LoopService', 'LoopStore',
  'loopProposalPrompt', 'parseLoopProposal', 'LoopProposals', 'proposalText', 'DEFAULT_LOOP_PROPOSAL_OPTIONS', 'LoopProposalOptions', 'LoopProposer', 'describePendingSource', 'describeLoopProposalMiss',
  'parseDirectives',
  'AUDIT_TOOLS', 'AuditLog', 'auditEndpointKey', 'auditEntryFrom', 'CONSENT_CATEGORIES', 'Clock', 'ConfiguredMemorySettings', 'ConsentStore', 'DEFAULT_ENDPOINT', 'DEFAULT_SETTINGS', 'describeDirectiveHandling', 'directiveHandling', 'FORGOTTEN_PENDING_REASON', 'pendingGroups', 'sourceForgetSummary',
  'DEFAULT_TRANSCRIPT_FILTER', 'ForgetService', 'GROUP_ID_STRATEGIES', 'GlobalStore', 'GraphitiConnection',
  'GroupIdResolver', 'GroupRecorder', 'GroupRecorderOptions', 'GroupRegistry', 'guardRecalledFacts', 'INGEST_SCOPE_SETTINGS',
  'InMemoryAuditLog', 'InMemoryDeliveryLedger', 'InMemoryGroupRegistry', 'InMemoryOutbox',
  'InMemoryPendingMemoryStore', 'Ingestion', 'IngestionOptions', 'IngestionService', 'IngestionStorage',
  'Logger', 'MemoryConfiguration', 'MemoryGate', 'MemoryPromotion', 'PROMOTION_KINDS', 'PendingMemoryStore',
  'PromotionService', 'QueuedGroups', 'RECALL_SCOPE_SETTINGS', 'RecallService', 'ReviewQueue', 'SCOPE_ORDER',
  'SERVER_KIND_SETTINGS', 'SETTINGS_SECTION', 'SETTING_BOUNDS', 'SecretGuard', 'SettingsSource',
  'SystemClock', 'TRANSCRIPT_FILTER_PRESETS', 'TRANSCRIPT_FORMATS', 'TelemetrySink', 'TurnPlanner',
  'USER_KEY_STORAGE_KEY', 'WorkspaceContext', 'WorkspaceStore', 'auditedConnection', 'categoriesInUse',
  'classifyGraphitiError', 'consentCovers', 'createInMemoryStorageModule', 'createMemoryModule',
  'createTranscriptReader', 'describeGraphitiFailure', 'detectTranscriptFormat', 'endpointProblem',
  'errorClassOf', 'filterAuditEntries', 'forgottenWith', 'hashedGroupId', 'inertCategories', 'isConsentCategory',
  'isCopilotAgentTranscript', 'isPromotionKind', 'isSuperseded', 'memorySettingsSchema', 'mergeGroupWrite',
  'normaliseEndpoint', 'normaliseFactText', 'normaliseGitRemote', 'openedIngestionStorage', 'parseClaudeCodeTranscript',
  'parseCopilotAgentTranscript', 'parseJsonlTranscript', 'parseMemorySettings', 'parseTranscript',
  'parseVsCodeChatSession', 'rawGroupId', 'resolveTranscriptFilter', 'runSmokeTest', 'sortGroupRecords', 'tokenEstimate',
  'isPromotionScope', 'PROMOTION_SCOPES', 'scopeLabel', 'isTeamGroupId', 'MEMORY_SCOPES', 'TEAM_AUDIENCE',
  'legacySessionGroupId', 'legacyWorkspaceGroupId', 'deliveryKey', 'parsePromotionEpisode', 'UserKeyReadiness',
  'CAPTURE_GRANULARITIES', 'DIGEST_SPEAKER', 'InMemoryDigestSegmentStore', 'digestMaxChars', 'digestMessage', 'digestMessageName', 'isDigestMessageName',
  'asEpisodeSource', 'EpisodeSources', 'forgottenSource', 'MAX_SOURCE_CONTENTS', 'deliveryNotice', 'LONG_WAIT_MS', 'forgottenContentKey', 'forgetEpisode', 'InMemoryEpisodeSources', 'MAX_STALE_CHECKS', 'pathsNamedIn', 'STALE_SETTINGS', 'WorkspaceFiles',
  'factContentHash', 'InMemorySaidOnceStore', 'NOTHING_SAID', 'parseSaidInSession', 'SAID_ONCE_BOUNDS', 'SaidOnceStore', 'saidTextHash', 'unsaidFacts', 'withSaid',
  'ForgetLedger', 'forgottenTurnKey', 'InMemoryForgetLedger', 'MAX_FORGOTTEN_TURNS', 'OwedDeletions', 'withForgottenGroups',
  'CHAT_MODEL_DIGEST_NOTE', 'DigestWriter', 'digestWriterOf', 'DigestWriting', 'DigestWritingOptions', 'DIGEST_MODEL_MAX_CHARS', 'DIGEST_WRITERS', 'digestWritersText',
  'FILTER_KINDS', 'FILTER_MODES', 'filterTurn', 'transcriptFilterProblems',
  'parseTurnMessageName',
  'createRecallModule',
  'foldForReading', 'neutraliseBlockTags', 'sanitiseReadableLine', 'sanitiseReadableText', 'isOwnTeamPromotion',
  'MAX_RECALL_QUERY_CHARS', 'RECALL_QUERY_GAP_MARKER', 'RECALL_QUERY_HEAD_CHARS', 'RECALL_QUERY_TAIL_CHARS', 'recallQueryOf',
  'LocalTier', 'TIER_STALE_MS', 'InMemoryLocalTierStore', 'LocalTierStore', 'BRIEF_KINDS', 'describeAge', 'cachedLabel', 'emptyTier', 'parseTier',
  'tierView', 'factsMatching', 'refreshTier', 'withoutGroups', 'withPromotion', 'withRecalledFacts', 'withRefresh', 'withSession', 'withoutEpisodes',
  'editedMemory', 'MemoryEditing', 'annotateFacts',
];

const TYPES = [
  'MirrorRecord', 'MirrorStats', 'MirrorWrite',
  'AgentTranscriptFormat', 'AgentTranscriptReadOptions',
  'CuratedMemory', 'InstructionLine', 'SectionReplacement',
  'LoopMarker', 'LoopNudges', 'LoopClosing', 'LoopEvidence', 'LoopStatus', 'OpenLoop',
  'LoopProposal', 'ClosedSessionDigest', 'LoopProposalOutcome', 'LoopProposalAnswer', 'LoopProposalRequest', 'LoopProposalApplied', 'LoopProposalMiss', 'PendingLoop',
  'MemoryDirective',
  'AcceptedEntry', 'AuditEntry', 'AuditFace', 'AuditTool', 'AuditQuery', 'AuditTarget', 'ChatTurn', 'CheckedSettingsSource', 'ClaudeCodeTranscriptOptions',
  'ConfirmationResult', 'ConsentCategory', 'ConsentRecord', 'CopilotAgentTranscriptOptions',
  'CopilotAgentTranscriptResult', 'DeadLetter', 'DeliveryLedger', 'FailureAdvice', 'FailureContext',
  'FailureDescription', 'FilterMode', 'ForgetFailure', 'ForgetRequest', 'ForgetResult', 'ForgetTarget',
  'GateClosedReason', 'GateDecision', 'GitMetadata', 'GraphitiApi', 'GraphitiCallOptions', 'GraphitiFailure',
  'GraphitiFailureKind', 'GroupIdStrategy', 'GroupRecord', 'GroupWrite', 'IngestScopeSetting',
  'IngestionCounters', 'IngestionState', 'IngestionStats', 'IngestionStore', 'JsonlTranscriptOptions',
  'KeyValueStore', 'LogFields', 'MarkPendingOptions', 'DeliveryCounts', 'DeliveryNotice', 'NoticeAudience', 'MemoryEvent', 'MemoryScope', 'MemorySettings', 'MemorySettingsParseResult', 'DirectiveHandling', 'PendingForget', 'SourceForgetResult',
  'Outbox', 'OutboxAdmitResult', 'OutboxAppendResult', 'OutboxDropReason', 'OutboxEntry', 'OutboxLimits',
  'OutboxRecord', 'PendingMemory', 'PendingMemorySource', 'PromotionKind', 'PromotionOutcome',
  'PromotionPlan', 'PromotionRefusal', 'PromotionRequest', 'PromotionScope', 'ProposeOutcome',
  'ProposedMemory', 'RecallError', 'RecallOptions', 'RecallOutcomeKind', 'RecallResult',
  'RecallScopeSetting', 'RecallSkipReason', 'RecalledFact', 'RedactionFinding', 'RedactionResult',
  'ResolvedGroup', 'ReviewOutcome', 'ScopeContext', 'ServerKindSetting', 'SmokeTestOptions', 'SmokeTestResult', 'SystemClockOptions',
  'TokenReduction', 'TranscriptFilter', 'TranscriptFilterOption', 'TranscriptFilterPreset',
  'TranscriptFormat', 'TranscriptOptions', 'TranscriptParseResult', 'TranscriptReader',
  'VsCodeChatSessionOptions',
  'RecallScopesSetting',
  'CaptureGranularity', 'DigestSegment', 'DigestSegmentChange', 'DigestSegmentStore', 'DigestTurn',
  'EpisodeForgetApi', 'EpisodeForgetOptions', 'EpisodeForgetResult', 'EpisodeSource', 'FactSource', 'MessageSource', 'StaleSetting',
  'SaidFact', 'SaidInSession', 'SaidMemory', 'SaidOnceRecordOptions',
  'ForgetRecord', 'ForgottenGroup', 'OwedDeletionsResult',
  'DigestWriteMiss', 'DigestWriteRequest', 'DigestWriteResult', 'DigestWriterSetting',
  'TranscriptFilterProblem',
  'TurnMessageName',
  'MemoryEdit', 'MemoryEditOutcome', 'StoredMemory', 'FactAnnotationPorts',
  'BriefOptions', 'BriefPromotion', 'CachedRecall', 'CachedRecallOptions', 'TierBrief', 'TierKey', 'TierBridge', 'TierContent', 'TierFact', 'TierPromotion', 'TierSession', 'TierViewOptions', 'TierGroups', 'TierRefresh',
];

const EPISODE_FORMAT_VALUES = [
  'formatEpisodeBlock', 'formatOwnershipContext', 'formatPromotionEpisode', 'isPromotionEpisodeName', 'isPromotionKind',
  'neutraliseEpisodeTags', 'parseEpisodeBlock', 'parsePromotionEpisode', 'PROMOTION_KINDS',
  'isPromotionScope', 'PROMOTION_SCOPES', 'scopeLabel',
];

/** The names `file` exports that exist only as types (interfaces, type aliases). */
function typeOnlyExports(file: string): string[] {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    experimentalDecorators: true,
    customConditions: ['@graphiti-memory/source'],
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`the compiler could not read ${file}: check the path and that it is a module`);
  return checker
    .getExportsOfModule(module)
    .filter((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return (target.flags & ts.SymbolFlags.Value) === 0;
    })
    .map((symbol) => symbol.name);
}

const byName = (left: string, right: string): number => (left < right ? -1 : left > right ? 1 : 0);

describe('the public surface of memory-core', () => {
  it('exports exactly the listed values', () => {
    expect(Object.keys(memoryCore).sort(byName)).toEqual([...VALUES].sort(byName));
  });

  it('exports exactly the listed types', () => {
    const file = path.join(import.meta.dirname, 'index.ts');
    expect(typeOnlyExports(file).sort(byName)).toEqual([...TYPES].sort(byName));
  }, 60_000);

  it('keeps internals inside: no hashing, wire-time formatting or Default* implementation', () => {
    const names = Object.keys(memoryCore);
    expect(names.filter((name) => /^Default|sha256|wireTime|Secretlint/.test(name))).toEqual([]);
  });

  it('exports the episode format through its own subpath', () => {
    expect(Object.keys(episodeFormat).sort(byName)).toEqual([...EPISODE_FORMAT_VALUES].sort(byName));
  });
});
