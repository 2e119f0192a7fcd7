// `vscode.workspace`, `commands`, `chat`, `lm` and `env` of the test double. Settings fall back to
// the defaults the extension's own manifest declares, so tests see what a fresh install sees.
import fs from 'node:fs';
import type * as vscode from 'vscode';
import { CancellationTokenSource, Disposable } from './basics.js';
import { clipboard } from './authentication.js';
import { onTestHostReset, testHost } from './test-host.js';

interface ManifestProperty {
  readonly default?: unknown;
}
type ManifestConfiguration = { readonly properties: Record<string, ManifestProperty> };
const manifest = JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  contributes: { configuration: ManifestConfiguration | readonly ManifestConfiguration[] };
};
// One object, or (settings grouped into categories) an array of them.
const manifestProperties: Record<string, ManifestProperty> = Object.assign(
  {},
  ...[manifest.contributes.configuration].flat().map((section) => section.properties),
) as Record<string, ManifestProperty>;

/** The default of a setting as the manifest declares it. */
export function manifestDefault(key: string): unknown {
  return manifestProperties[key]?.default;
}

function readSetting(key: string): unknown {
  const settings = testHost().settings;
  return settings.has(key) ? settings.get(key) : manifestDefault(key);
}

class WorkspaceConfigurationDouble {
  constructor(private readonly section: string | undefined) {}
  #key(key: string): string {
    return this.section ? `${this.section}.${key}` : key;
  }
  get<T>(key: string, defaultValue?: T): T | undefined {
    const value = readSetting(this.#key(key));
    return (value === undefined ? defaultValue : value) as T | undefined;
  }
  has(key: string): boolean {
    return readSetting(this.#key(key)) !== undefined;
  }
  inspect<T>(key: string) {
    const full = this.#key(key);
    const settings = testHost().settings;
    const value = settings.get(full) as T | undefined;
    // One value per key, reported at the level it was last written to (user settings unless told).
    const target = testHost().settingTargets.get(full);
    return {
      key: full,
      defaultValue: manifestDefault(full) as T | undefined,
      ...(target === 2 ? { workspaceValue: value } : target === 3 ? { workspaceFolderValue: value } : { globalValue: value }),
    };
  }
  update(key: string, value: unknown, target?: boolean | number | null): Thenable<void> {
    const full = this.#key(key);
    if (value === undefined) testHost().settings.delete(full);
    else testHost().settings.set(full, value);
    if (typeof target === 'number' && target !== 1 && value !== undefined) testHost().settingTargets.set(full, target);
    else testHost().settingTargets.delete(full);
    testHost().configurationChanged.fire({
      affectsConfiguration: (section: string) => full === section || full.startsWith(`${section}.`),
    });
    return Promise.resolve();
  }
}

const contentProviders = new Map<string, vscode.TextDocumentContentProvider>();
onTestHostReset(() => contentProviders.clear());

export const workspace = {
  getConfiguration(section?: string) {
    return new WorkspaceConfigurationDouble(section) as unknown as vscode.WorkspaceConfiguration;
  },
  async openTextDocument(options: vscode.Uri | { readonly language?: string; readonly content?: string }): Promise<vscode.TextDocument> {
    if ('scheme' in options) {
      // A document of a content provider's scheme: read-only, its text from the provider.
      const provider = contentProviders.get(options.scheme);
      if (provider === undefined) throw new Error(`vscode double: no content provider for ${options.toString()}`);
      const text = (await provider.provideTextDocumentContent(options, new CancellationTokenSource().token)) ?? '';
      const languageId = options.path.endsWith('.md') ? 'markdown' : 'plaintext';
      return { uri: options, languageId, isUntitled: false, getText: () => text } as unknown as vscode.TextDocument;
    }
    const text = options.content ?? '';
    return { languageId: options.language ?? 'plaintext', isUntitled: true, getText: () => text } as unknown as vscode.TextDocument;
  },
  registerTextDocumentContentProvider(scheme: string, provider: vscode.TextDocumentContentProvider): vscode.Disposable {
    if (contentProviders.has(scheme)) throw new Error(`vscode double: a content provider for '${scheme}' already exists`);
    contentProviders.set(scheme, provider);
    return new Disposable(() => contentProviders.delete(scheme));
  },
  get onDidChangeConfiguration() {
    return testHost().configurationChanged.event;
  },
  get onDidGrantWorkspaceTrust() {
    return testHost().trustGranted.event;
  },
  get onDidChangeWorkspaceFolders() {
    return testHost().foldersChanged.event;
  },
  get isTrusted() {
    return testHost().trusted;
  },
  get workspaceFolders() {
    return testHost().workspaceFolders;
  },
  get name() {
    return testHost().workspaceName;
  },
} satisfies Partial<Record<keyof typeof vscode.workspace, unknown>>;

export const commands = {
  registerCommand(command: string, callback: (...args: unknown[]) => unknown): vscode.Disposable {
    const registry = testHost().commands;
    if (registry.has(command)) throw new Error(`vscode double: command '${command}' already exists`);
    registry.set(command, callback);
    return new Disposable(() => registry.delete(command));
  },
  async executeCommand<T = unknown>(command: string, ...args: unknown[]): Promise<T> {
    const host = testHost();
    host.executedCommands.push({ command, args });
    if (command === 'setContext') {
      host.contextKeys.set(String(args[0]), args[1]);
      return undefined as T;
    }
    const handler = host.commands.get(command);
    return (handler ? await handler(...args) : undefined) as T;
  },
  async getCommands(): Promise<string[]> {
    return [...testHost().commands.keys()];
  },
} satisfies Partial<Record<keyof typeof vscode.commands, unknown>>;

export class ChatParticipantDouble {
  iconPath: vscode.ChatParticipant['iconPath'];
  followupProvider: vscode.ChatFollowupProvider | undefined;
  readonly onDidReceiveFeedback = () => new Disposable(() => undefined);
  disposed = false;
  constructor(
    readonly id: string,
    public requestHandler: vscode.ChatRequestHandler,
  ) {}
  dispose(): void {
    this.disposed = true;
    chatRegistry.participants.delete(this.id);
  }
}

const chatRegistry = {
  participants: new Map<string, ChatParticipantDouble>(),
  tools: new Map<string, vscode.LanguageModelTool<unknown>>(),
};
onTestHostReset(() => {
  chatRegistry.participants = new Map();
  chatRegistry.tools = new Map();
});

/** Chat participants and language-model tools the extension registered (test helper). */
export function chatRegistrations(): Readonly<typeof chatRegistry> {
  return chatRegistry;
}

export const chat = {
  createChatParticipant(id: string, handler: vscode.ChatRequestHandler): vscode.ChatParticipant {
    if (chatRegistry.participants.has(id)) throw new Error(`vscode double: chat participant '${id}' already exists`);
    const participant = new ChatParticipantDouble(id, handler);
    chatRegistry.participants.set(id, participant);
    return participant as unknown as vscode.ChatParticipant;
  },
} satisfies Partial<Record<keyof typeof vscode.chat, unknown>>;

let chatModels: readonly vscode.LanguageModelChat[] = [];
onTestHostReset(() => {
  chatModels = [];
});

/** The chat models `vscode.lm.selectChatModels` offers (test helper); none until a test sets some. */
export function useChatModels(...models: vscode.LanguageModelChat[]): void {
  chatModels = models;
}

export const lm = {
  registerTool<T>(name: string, tool: vscode.LanguageModelTool<T>): vscode.Disposable {
    if (chatRegistry.tools.has(name)) throw new Error(`vscode double: tool '${name}' already registered`);
    chatRegistry.tools.set(name, tool as vscode.LanguageModelTool<unknown>);
    return new Disposable(() => chatRegistry.tools.delete(name));
  },
  get tools(): readonly vscode.LanguageModelToolInformation[] {
    return [...chatRegistry.tools.keys()].map((name) => ({ name, description: '', inputSchema: undefined, tags: [] }));
  },
  async selectChatModels(selector?: vscode.LanguageModelChatSelector): Promise<vscode.LanguageModelChat[]> {
    // Each field of the selector must match, as VS Code selects.
    return chatModels.filter((model) => (['vendor', 'family', 'id', 'version'] as const).every((field) => selector?.[field] === undefined || selector[field] === model[field]));
  },
} satisfies Partial<Record<keyof typeof vscode.lm, unknown>>;

export const env = {
  appName: 'Visual Studio Code (test double)',
  appHost: 'desktop',
  language: 'en',
  machineId: 'test-machine-id',
  sessionId: 'test-session-id',
  uriScheme: 'vscode',
  clipboard,
  async openExternal(): Promise<boolean> {
    return true;
  },
} satisfies Partial<Record<keyof typeof vscode.env, unknown>>;

export const extensions = {
  getExtension(): undefined {
    return undefined;
  },
  all: [] as const,
} satisfies Partial<Record<keyof typeof vscode.extensions, unknown>>;

export const version = '1.95.0';
