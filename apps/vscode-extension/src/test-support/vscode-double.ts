// The typed test double of the `vscode` module. vitest aliases `vscode` to this file (see
// vitest.config.mts), and install-vscode-double.ts hands it to libraries that `require('vscode')`.
// Only what the extension uses exists; names are checked against @types/vscode, classes implement
// their real interfaces. Test helpers (scripted dialogs, registries, fakes) are exported beside it.
export {
  CancellationTokenSource,
  ConfigurationTarget,
  Disposable,
  EventEmitter,
  ExtensionMode,
  LogLevel,
  MarkdownString,
  Position,
  ProgressLocation,
  Range,
  Selection,
  StatusBarAlignment,
  ThemeColor,
  ThemeIcon,
  TreeItem,
  TreeItemCollapsibleState,
  Uri,
  ViewColumn,
  noCancellation,
} from './vscode-double/basics.js';
export {
  ChatRequestTurn,
  ChatResponseMarkdownPart,
  ChatResponseTurn,
  ChatResultFeedbackKind,
  LanguageModelChatMessage,
  LanguageModelChatMessageRole,
  LanguageModelChatToolMode,
  LanguageModelError,
  LanguageModelPromptTsxPart,
  LanguageModelTextPart,
  LanguageModelToolCallPart,
  LanguageModelToolResult,
  LanguageModelToolResultPart,
  messageText,
} from './vscode-double/chat-types.js';
export { chat, chatRegistrations, commands, env, extensions, lm, manifestDefault, version, workspace } from './vscode-double/workspace.js';
export { useChatModels } from './vscode-double/workspace.js';
export { window, windowRegistry } from './vscode-double/window.js';
export { authentication, clipboardContents, sessionRequests, signIn } from './vscode-double/authentication.js';
export * from './vscode-double/test-host.js';
export * from './vscode-double/extension-context.js';
export * from './vscode-double/chat-doubles.js';
