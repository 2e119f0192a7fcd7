// The extension's bindings: VS Code adapters for memory-core's ports, the extension's services,
// and every contribution (multi-bound under `Contribution`, registered in order by activate).
import { ContainerModule } from 'inversify';
import type * as vscode from 'vscode';
import {
  AuditLog,
  Clock,
  DigestWriter,
  LoopProposer,
  ConsentStore,
  GroupRecorderOptions,
  categoriesInUse,
  GlobalStore,
  GraphitiConnection,
  Logger,
  MemoryConfiguration,
  MemoryGate,
  SettingsSource,
  SystemClock,
  TelemetrySink,
  UserKeyReadiness,
  WorkspaceContext,
  WorkspaceFiles,
  WorkspaceStore,
  InMemorySaidOnceStore,
  SaidOnceStore,
} from '@graphiti-memory/memory-core';
import { NodeWorkspaceFiles } from '@graphiti-memory/memory-node-storage';
import { ApiKeyStore, SecretApiKeyStore } from '../adapters/api-key-store.js';
import { AgentConnection } from '../agent-hooks/agent-connection.js';
import { AgentHookPlaces, defaultAgentHookPlaces } from '../agent-hooks/agent-hook-places.js';
import { ConnectAgentsCommands } from '../agent-hooks/connect-agents-command.js';
import { RecreatingGraphitiConnection } from '../adapters/graphiti-connection.js';
import { LogChannelLogger } from '../adapters/log-channel-logger.js';
import { LogTelemetry } from '../adapters/log-telemetry.js';
import { MementoConsentStore, MementoKeyValueStore } from '../adapters/memento-stores.js';
import { VsCodeSettingsSource } from '../adapters/vscode-settings-source.js';
import { VsCodeWorkspaceContext } from '../adapters/vscode-workspace-context.js';
import { CaptureContribution, CaptureTiming, DEFAULT_CAPTURE_TIMING } from '../capture/capture-contribution.js';
import { ChatModelDigestWriter } from '../capture/chat-model-digest-writer.js';
import { ChatModelLoopProposer } from '../capture/chat-model-loop-proposer.js';
import { ChatSessionFacts } from '../chat/chat-session-facts.js';
import { ForgetEvents } from '../memory/forget-events.js';
import { MemoryParticipant } from '../chat/memory-participant.js';
import { RecalledFactDocuments } from '../chat/fact-references.js';
import { ApiKeyCommands } from '../commands/api-key-commands.js';
import { ExportInstructionsCommand } from '../commands/export-instructions-command.js';
import { ForgetWorkspaceCommand, ScopeForgetter } from '../commands/forget-workspace-command.js';
import { ImportClaudeCodeCommand } from '../commands/import-claude-code-command.js';
import { PromoteCommand } from '../commands/promote-command.js';
import { DEFAULT_SMOKE_TEST_TIMING, SmokeTestTiming, TestConnectionCommand } from '../commands/test-connection-command.js';
import { ConsentContribution } from '../consent/consent-contribution.js';
import { TeamConsentContribution } from '../consent/team-consent.js';
import { ConsentEvents } from '../consent/consent-events.js';
import { ConsentHistory } from '../consent/consent-history.js';
import { ConsentFlow } from '../consent/consent-flow.js';
import { PendingMemoriesContribution } from '../episodes/pending-memories.js';
import { OpenLoopsContribution } from '../episodes/open-loops.js';
import { PendingBadgeContribution } from '../episodes/pending-badge.js';
import { ShowWhatWasSentCommand } from '../trust/show-what-was-sent-command.js';
import { auditConnection } from '../trust/trust-services.js';
import { SharedUserKeyStore, UserConfigUserKeyStore } from '../user-key/shared-user-key-store.js';
import { UserKeyContribution } from '../user-key/user-key-contribution.js';
import { UserMemoryKey, userKeyReadiness } from '../user-key/user-memory-key.js';
import { EpisodesTreeProvider } from '../episodes/episodes-view.js';
import { EpisodesViewContribution } from '../episodes/episodes-view-contribution.js';
import { ReadOnlyDocuments } from '../episodes/read-only-documents.js';
import { WalkthroughProgress } from '../status/walkthrough-progress.js';
import { EditMemoryCommand } from '../episodes/edit-memory-command.js';
import { OpenMemoryPageCommand } from '../commands/open-memory-page-command.js';
import { DeliveryContribution } from '../memory/delivery-contribution.js';
import { MemoryStatus } from '../status/memory-status.js';
import { RecallHealthTelemetry } from '../status/recall-health-telemetry.js';
import { StatusBarContribution } from '../status/status-bar-contribution.js';
import { StatusCommands } from '../status/status-commands.js';
import { DEFAULT_HEALTH_PROBE_TIMING, HealthProbe, HealthProbeTiming } from '../status/health-probe.js';
import { StatusMenuCommand } from '../status/status-menu-command.js';
import { DisableCommands } from '../consent/disable-commands.js';
import { MemorySwitchRecorder } from '../consent/memory-switch-recorder.js';
import { ProjectTrustPrompt } from '../trust/project-trust-prompt.js';
import { MemoryToolsContribution, RememberTool, SearchMemoryTool } from '../tools/memory-tools.js';
import { Contribution, ExtensionContext, LogChannel } from './tokens.js';

/** Contributions in registration order: the status bar first, so it shows while the rest register. */
export const CONTRIBUTIONS = [
  StatusBarContribution,
  DeliveryContribution,
  StatusCommands,
  ConsentContribution,
  TestConnectionCommand,
  PromoteCommand,
  ForgetWorkspaceCommand,
  ExportInstructionsCommand,
  ApiKeyCommands,
  ImportClaudeCodeCommand,
  ConnectAgentsCommands,
  MemoryParticipant,
  MemoryToolsContribution,
  EpisodesViewContribution,
  CaptureContribution,
  UserKeyContribution,
  PendingMemoriesContribution,
  OpenLoopsContribution,
  ShowWhatWasSentCommand,
  TeamConsentContribution,
  StatusMenuCommand,
  HealthProbe,
  DisableCommands,
  ProjectTrustPrompt,
  PendingBadgeContribution,
  RecalledFactDocuments,
  ReadOnlyDocuments,
  WalkthroughProgress,
  EditMemoryCommand,
  OpenMemoryPageCommand,
] as const;

export interface ExtensionModuleOptions {
  readonly context: vscode.ExtensionContext;
  readonly channel: vscode.LogOutputChannel;
}

export function createExtensionModule({ context, channel }: ExtensionModuleOptions): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(ExtensionContext).toConstantValue(context);
    bind(LogChannel).toConstantValue(channel);

    // Ports of memory-core.
    // Unref'd: a pending retry backoff never keeps the extension host alive on its own.
    const clock = new SystemClock({ unrefTimers: true });
    const logger = new LogChannelLogger(channel);
    bind(Clock).toConstantValue(clock);
    bind(Logger).toConstantValue(logger);
    bind(TelemetrySink)
      .toDynamicValue(({ get }) => new RecallHealthTelemetry(new LogTelemetry(logger), () => get<MemoryStatus>(MemoryStatus)))
      .inSingletonScope();
    bind(SettingsSource).to(VsCodeSettingsSource).inSingletonScope();
    const workspaceContext = new VsCodeWorkspaceContext();
    bind(WorkspaceContext).toConstantValue(workspaceContext);
    // The stale check of recall: paths facts name, looked up (never read) in the workspace's folders.
    bind(WorkspaceFiles).toConstantValue(new NodeWorkspaceFiles(() => workspaceContext.localFolderPaths()));
    // One recorder for every switch the window writes (Disable, consent, `enabled`, trust): one queue, so a quick off → on ends on.
    bind(MemorySwitchRecorder).toConstantValue(new MemorySwitchRecorder({ environment: process.env, folders: () => workspaceContext.localFolderPaths() }));
    bind(MementoConsentStore)
      .toDynamicValue(({ get }) => {
        const configuration = get<MemoryConfiguration>(MemoryConfiguration);
        return new MementoConsentStore(context.workspaceState, clock, () => categoriesInUse(configuration.current()));
      })
      .inSingletonScope();
    bind(ConsentStore).toService(MementoConsentStore);
    bind(ConsentEvents).toService(MementoConsentStore);
    bind(ConsentHistory).toService(MementoConsentStore);
    bind(GlobalStore).toConstantValue(new MementoKeyValueStore(context.globalState));
    bind(WorkspaceStore).toConstantValue(new MementoKeyValueStore(context.workspaceState));
    const apiKeys = new SecretApiKeyStore(context.secrets);
    context.subscriptions.push(apiKeys);
    bind(ApiKeyStore).toConstantValue(apiKeys);
    bind(GroupRecorderOptions).toConstantValue({ tool: 'vscode-extension' });
    bind(GraphitiConnection)
      .toDynamicValue(({ get }) => {
        const configuration = get<MemoryConfiguration>(MemoryConfiguration);
        const connection = new RecreatingGraphitiConnection(configuration, apiKeys);
        context.subscriptions.push(connection);
        return auditConnection(connection, get<AuditLog>(AuditLog), configuration);
      })
      .inSingletonScope();

    // The extension's own services.
    bind(MemoryStatus).toSelf().inSingletonScope();
    // Say it once: what each @memory chat session was given, in process (hashes; the facts for its prompt).
    bind(SaidOnceStore).toConstantValue(new InMemorySaidOnceStore());
    // Forget, Revoke Consent and Disable say so once; each chat's record of what it was given listens.
    const forgetEvents = new ForgetEvents();
    context.subscriptions.push(forgetEvents);
    bind(ForgetEvents).toConstantValue(forgetEvents);
    bind(ChatSessionFacts).toSelf().inSingletonScope();
    bind(ConsentFlow).toSelf().inSingletonScope();
    bind(SharedUserKeyStore).toConstantValue(new UserConfigUserKeyStore());
    bind(UserMemoryKey).toSelf().inSingletonScope();
    // Private groups derive from the user key: the resolver waits for the key in force (issue 21).
    bind(UserKeyReadiness)
      .toDynamicValue(({ get }) => userKeyReadiness(get<UserMemoryKey>(UserMemoryKey), get<MemoryGate>(MemoryGate)))
      .inSingletonScope();
    bind(ScopeForgetter).toSelf().inSingletonScope();
    bind(EpisodesTreeProvider).toSelf().inSingletonScope();
    bind(SearchMemoryTool).toSelf().inSingletonScope();
    bind(RememberTool).toSelf().inSingletonScope();
    bind(SmokeTestTiming).toConstantValue(DEFAULT_SMOKE_TEST_TIMING);
    bind(HealthProbeTiming).toConstantValue(DEFAULT_HEALTH_PROBE_TIMING);
    bind(CaptureTiming).toConstantValue(DEFAULT_CAPTURE_TIMING);
    bind(AgentHookPlaces).toConstantValue(defaultAgentHookPlaces(context.extensionPath, extensionVersion(context)));
    bind(AgentConnection).toSelf().inSingletonScope();
    // Only VS Code has a chat model: with capture.digestWriter chatModel it writes session digests.
    bind(DigestWriter).to(ChatModelDigestWriter).inSingletonScope();
    // With loops.proposeWithModel it proposes loops from closed sessions, for review.
    bind(LoopProposer).to(ChatModelLoopProposer).inSingletonScope();

    for (const contribution of CONTRIBUTIONS) {
      bind(contribution).toSelf().inSingletonScope();
      bind(Contribution).toService(contribution);
    }
  });
}

/** The version in the extension's package.json (it names the hook runner copy Connect installs). */
function extensionVersion(context: vscode.ExtensionContext): string {
  const version = (context.extension.packageJSON as { version?: unknown } | undefined)?.version;
  return typeof version === 'string' && version !== '' ? version : 'unknown';
}
