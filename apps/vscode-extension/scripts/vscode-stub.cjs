// A minimal `vscode` module for loading the bundle outside VS Code (benchmarks, smoke checks):
// every property is a callable stub returning another stub; nothing is a thenable.
'use strict';
const Module = require('node:module');

function stub(name) {
  const target = function () {};
  return new Proxy(target, {
    get(_target, property) {
      if (property === 'then') return undefined;
      if (property === Symbol.toPrimitive) return () => name;
      if (property === Symbol.iterator) return function* () {};
      if (property === 'isTrusted') return true;
      if (property === 'workspaceFolders') return undefined;
      return stub(`${name}.${String(property)}`);
    },
    apply() {
      return stub(`${name}()`);
    },
    // Assignments (item.text = …) are accepted and forgotten.
    set() {
      return true;
    },
    construct() {
      return stub(`new ${name}`);
    },
  });
}

// A plain object at the top: bundlers copy a CommonJS module's own keys into their namespace.
const NAMES = [
  'window', 'workspace', 'commands', 'chat', 'lm', 'env', 'extensions', 'l10n', 'languages',
  'Uri', 'EventEmitter', 'Disposable', 'ThemeColor', 'ThemeIcon', 'TreeItem', 'TreeItemCollapsibleState',
  'StatusBarAlignment', 'ConfigurationTarget', 'MarkdownString', 'CancellationTokenSource', 'LogLevel',
  'LanguageModelChatMessage', 'LanguageModelChatMessageRole', 'LanguageModelTextPart', 'LanguageModelToolResult',
  'LanguageModelPromptTsxPart', 'LanguageModelToolCallPart', 'LanguageModelToolResultPart', 'LanguageModelError',
  'ChatRequestTurn', 'ChatResponseTurn', 'ChatResponseMarkdownPart', 'ProgressLocation', 'Position', 'Range', 'Selection',
];
const vscode = Object.fromEntries(NAMES.map((name) => [name, stub(name)]));
vscode.version = '1.95.0';
// Settings read their defaults, except `enabled` when a context asked for memory on.
let memoryEnabled = false;
const workspace = stub('workspace');
vscode.workspace = new Proxy(workspace, {
  get(target, property) {
    if (property === 'getConfiguration') {
      return () => ({ get: (key, fallback) => (key === 'enabled' ? memoryEnabled : fallback), has: () => false, inspect: () => undefined, update: async () => undefined });
    }
    return target[property];
  },
});
const originalLoad = Module._load;
Module._load = function load(request, parent, isMain) {
  return request === 'vscode' ? vscode : originalLoad.call(this, request, parent, isMain);
};

/** An ExtensionContext good enough for activate(); `enabled` turns memory on. */
function createContext(storage, { packageJSON = {}, enabled = false } = {}) {
  memoryEnabled = enabled;
  const memento = { get: (_key, fallback) => fallback, update: async () => undefined, keys: () => [], setKeysForSync() {} };
  return {
    subscriptions: [],
    workspaceState: memento,
    globalState: memento,
    secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: () => ({ dispose() {} }) },
    extensionUri: stub('extensionUri'),
    extension: { id: 'graphiti-memory.graphiti-memory', packageJSON },
    storageUri: undefined,
    globalStorageUri: { fsPath: storage, scheme: 'file' },
    logUri: { fsPath: storage },
  };
}

module.exports = { createContext };
