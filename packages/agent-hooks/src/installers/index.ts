/**
 * Agent hook files: Graphiti Memory's entries in `~/.claude/settings.json` and
 * `~/.copilot/hooks/graphiti-memory.json` — install (merged, atomic, backed up, idempotent),
 * uninstall (exactly our entries) and status; the runner they run, copied into the state folder.
 */
export {
  AGENT_HOOK_TARGETS,
  agentHookFile,
  agentHookStatus,
  agentHooksStatus,
  BACKUP_SUFFIX,
  COPILOT_HOOKS_FILE_NAME,
  installAgentHooks,
  uninstallAgentHooks,
  type AgentHookChange,
  type AgentHookStatus,
  type AgentHookTarget,
  type InstallAgentHooksOptions,
} from './agent-hook-files.js';
export {
  AGENT_HOOK_EVENTS,
  AGENT_HOOK_TIMEOUT_SECONDS,
  hookCommandLine,
  hookCommandScript,
  INSTALLED_BY_FLAG,
  isOurHookCommand,
  type AgentHookCommand,
  type AgentHookEvent,
  type CommandShell,
} from './hook-command.js';
export { AGENT_DETECTION, detectAgents, type AgentDetection, type DetectAgentsOptions, type DetectedAgent } from './agent-detection.js';
export {
  connectAgents,
  disconnectAgents,
  endpointChangeLines,
  type AgentsConnected,
  type AgentsDisconnected,
  type ConfigPatch,
  type ConnectAgentsOptions,
  type DisconnectAgentsOptions,
} from './connect-agents.js';
export {
  ASSISTANTS,
  assistantDescriptor,
  DEFAULT_ASSISTANT,
  isAgentHookTarget,
} from '../assistants/assistant-registry.js';
export {
  HANDLER_EVENTS,
  type AssistantDescriptor,
  type ContextLifetime,
  type DetectionDescriptor,
  type HandlerEvent,
  type HookFileDescriptor,
  type HookFileFormat,
  type HookInputDescriptor,
  type HookOutputDescriptor,
  type TranscriptDescriptor,
  type TrustDescriptor,
  type TrustRecorded,
  type TrustStatus,
  type TrustStep,
} from '../assistants/assistant-descriptor.js';
export {
  installRunner,
  pruneRunners,
  RUNNER_MANIFEST_FILE_NAME,
  runnersDirectory,
  RUNNERS_FOLDER_NAME,
  runnerStatus,
  type InstalledRunner,
  type RunnerManifest,
  type RunnerStatus,
} from './runner-install.js';
export {
  installMcpServer,
  MCP_CLIENT_TARGETS,
  MCP_CLIENTS,
  MCP_INSTALLED_BY_ARGUMENTS,
  MCP_SERVER_ENTRY_NAME,
  mcpClientFile,
  mcpServerInstalled,
  mcpServersStatus,
  type McpServerInstallation,
  uninstallMcpServer,
  type McpClientChange,
  type McpClientPlace,
  type McpClientTarget,
  type McpServerCommand,
} from './mcp-clients.js';
