// The small entry: registers every contribution of package.json at activation — a forwarder per
// command, the chat participants, the language-model tools, the view, the status item — and loads
// the memory runtime only when memory is on in a trusted workspace, or when one of them is used.
// With memory off, activation loads this file and nothing else of the extension.
import * as vscode from 'vscode';
import type { StatusSnapshot } from '../status/memory-status.js';
import { createStatusBarItem, showStatus, type MemoryState } from '../status/status-presentation.js';
import type { ChatParticipantBehaviour, ContributionPoints } from './contribution-points.js';
import type { MemoryRuntime, RuntimeModule } from './runtime-module.js';

/** What `activate` returns: for tests and for other extensions that want to show memory's state. */
export interface GraphitiMemoryApi {
  status(): StatusSnapshot;
}

interface Contributes {
  readonly commands?: readonly { readonly command: string }[];
  readonly chatParticipants?: readonly { readonly id: string }[];
  readonly languageModelTools?: readonly { readonly name: string }[];
  readonly views?: Readonly<Record<string, readonly { readonly id: string }[]>>;
}

const SECTION = 'graphitiMemory';
const RUNTIME_FAILED =
  'Graphiti Memory could not load its memory runtime, so memory is off for this window. Reinstall the extension; "Graphiti Memory: Open Log" says what failed.';

export interface EntryOptions {
  /** Loads the runtime bundle (`require('./runtime.cjs')` in the VSIX). */
  readonly loadRuntime: () => RuntimeModule;
}

export function activateEntry(context: vscode.ExtensionContext, { loadRuntime }: EntryOptions): GraphitiMemoryApi {
  const channel = vscode.window.createOutputChannel('Graphiti Memory', { log: true });
  const contributes = ((context.extension.packageJSON as { contributes?: Contributes } | undefined)?.contributes ?? {}) satisfies Contributes;
  const points = new EntryContributionPoints(createStatusBarItem());
  context.subscriptions.push(channel, points);

  let runtime: MemoryRuntime | undefined;
  let failed = false;
  const forwarders: vscode.Disposable[] = [];
  const load = (): MemoryRuntime | undefined => {
    if (runtime !== undefined || failed) return runtime;
    try {
      const module = loadRuntime();
      // The runtime's features register the commands themselves: the forwarders step aside first.
      for (const forwarder of forwarders.splice(0)) forwarder.dispose();
      runtime = module.startMemoryRuntime({ context, channel, points });
    } catch (error) {
      failed = true;
      channel.error(`the memory runtime failed to load (${error instanceof Error ? error.name : 'unknown'})`);
    }
    return runtime;
  };
  const loadOrExplain = (): MemoryRuntime | undefined => {
    const loaded = load();
    if (loaded === undefined) void vscode.window.showErrorMessage(RUNTIME_FAILED);
    return loaded;
  };

  for (const { command } of contributes.commands ?? []) {
    const forwarder = vscode.commands.registerCommand(command, async (...args: unknown[]) =>
      loadOrExplain() === undefined ? undefined : await vscode.commands.executeCommand(command, ...args),
    );
    forwarders.push(forwarder);
  }
  context.subscriptions.push({ dispose: () => forwarders.splice(0).forEach((forwarder) => forwarder.dispose()) });

  for (const { id } of contributes.chatParticipants ?? []) {
    const participant = vscode.chat.createChatParticipant(id, async (request, chatContext, stream, token) => {
      if (loadOrExplain() === undefined) return { errorDetails: { message: RUNTIME_FAILED } };
      return (await points.participant(id)?.handle(request, chatContext, stream, token)) ?? {};
    });
    participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'images', 'icon.png');
    participant.followupProvider = { provideFollowups: (result, chatContext, token) => points.participant(id)?.followups?.(result, chatContext, token) ?? [] };
    context.subscriptions.push(participant);
  }

  for (const { name } of contributes.languageModelTools ?? []) {
    const tool = (): vscode.LanguageModelTool<unknown> => {
      const implementation = loadOrExplain() === undefined ? undefined : points.tool(name);
      if (implementation === undefined) throw new Error(`Graphiti Memory: the tool ${name} is not available: ${RUNTIME_FAILED}`);
      return implementation;
    };
    context.subscriptions.push(
      vscode.lm.registerTool<unknown>(name, {
        prepareInvocation: (options, token) => tool().prepareInvocation?.(options, token),
        invoke: (options, token) => tool().invoke(options, token),
      }),
    );
  }

  for (const view of Object.values(contributes.views ?? {}).flat()) {
    const treeView = vscode.window.createTreeView(view.id, { treeDataProvider: points.view(view.id), showCollapseAll: true });
    points.treeViews.set(view.id, treeView);
    context.subscriptions.push(treeView);
  }

  const enabledAndTrusted = (): boolean => vscode.workspace.isTrusted && vscode.workspace.getConfiguration(SECTION).get<boolean>('enabled', false);
  // The walkthrough's first step ticks on an endpoint the user set in VS Code, memory on or off
  // (the runtime also counts one set in the shared config files, once it runs). Key: WALKTHROUGH_CONTEXT.endpointSet.
  const tickEndpoint = (): void => {
    const values = vscode.workspace.getConfiguration(SECTION).inspect<string>('endpoint');
    if ([values?.globalValue, values?.workspaceValue, values?.workspaceFolderValue].some((value) => typeof value === 'string' && value !== '')) {
      void vscode.commands.executeCommand('setContext', 'graphitiMemory.endpointSet', true);
    }
  };
  tickEndpoint();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.endpoint`)) tickEndpoint();
    }),
  );
  const update = (): void => {
    if (runtime !== undefined) return;
    if (enabledAndTrusted()) load();
    else showStatus(points.statusBarItem, entryStatus());
  };
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SECTION)) update();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(update),
    vscode.workspace.onDidGrantWorkspaceTrust(() => mirrorTrust(loadRuntime, true)),
  );
  update();
  // The agent hooks in an untrusted folder must stay silent too, though the runtime never starts
  // here: the mark goes into the shared memory switches, after activation, off its path.
  if (!vscode.workspace.isTrusted) setTimeout(() => mirrorTrust(loadRuntime, false), 0);
  points.statusBarItem.show();

  return {
    status: () => load()?.status() ?? { ...OFF_SNAPSHOT, ...entryStatus(), summary: RUNTIME_FAILED },
  };
}

/**
 * Records the window's trust in the shared memory switches, through the runtime bundle's module
 * (loaded, not started): only an untrusted window, or a trust grant, pays for it, after activation.
 */
function mirrorTrust(loadRuntime: () => RuntimeModule, trusted: boolean): void {
  try {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
    void loadRuntime().recordWorkspaceTrust?.(trusted, folders);
  } catch {
    // Never in the way of the window; the hooks keep what the switches said before.
  }
}

/** The state while the runtime is not loaded: memory off, or on in an untrusted workspace. */
function entryStatus(): { readonly state: MemoryState; readonly queueDepth: number; readonly summary: string } {
  const configuration = vscode.workspace.getConfiguration(SECTION);
  const enabled = configuration.get<boolean>('enabled', false) && configuration.get<string>('endpoint', '') !== '';
  return enabled && !vscode.workspace.isTrusted
    ? { state: 'untrusted', queueDepth: 0, summary: 'Memory is off in an untrusted workspace: nothing is sent or recalled. Trust the workspace to use it.' }
    : { state: 'off', queueDepth: 0, summary: 'Memory is off here: nothing is sent or recalled. Choose "Enable Here" (Graphiti Memory: Enable in This Workspace) to turn it on.' };
}

const OFF_SNAPSHOT: StatusSnapshot = {
  state: 'off',
  gate: { open: false, reason: 'disabled' },
  enabled: false,
  recallEnabled: false,
  endpoint: '',
  queueDepth: 0,
  deadLetters: 0,
  delivery: undefined,
  lastRecall: undefined,
  problems: [],
  inertCategories: [],
  summary: '',
};

/** Holds what the runtime's features supply for the entry's registrations. */
class EntryContributionPoints implements ContributionPoints, vscode.Disposable {
  readonly #participants = new Map<string, ChatParticipantBehaviour>();
  readonly #tools = new Map<string, vscode.LanguageModelTool<unknown>>();
  readonly #views = new Map<string, ForwardingTreeDataProvider>();
  readonly treeViews = new Map<string, vscode.TreeView<unknown>>();

  constructor(readonly statusBarItem: vscode.StatusBarItem) {}

  treeView(viewId: string): vscode.TreeView<unknown> | undefined {
    return this.treeViews.get(viewId);
  }

  participant(id: string): ChatParticipantBehaviour | undefined {
    return this.#participants.get(id);
  }

  tool(name: string): vscode.LanguageModelTool<unknown> | undefined {
    return this.#tools.get(name);
  }

  view(viewId: string): ForwardingTreeDataProvider {
    let view = this.#views.get(viewId);
    if (view === undefined) {
      view = new ForwardingTreeDataProvider();
      this.#views.set(viewId, view);
    }
    return view;
  }

  setChatParticipant(id: string, behaviour: ChatParticipantBehaviour): vscode.Disposable {
    this.#participants.set(id, behaviour);
    return { dispose: () => this.#participants.delete(id) };
  }

  setTool<T>(name: string, tool: vscode.LanguageModelTool<T>): vscode.Disposable {
    this.#tools.set(name, tool as vscode.LanguageModelTool<unknown>);
    return { dispose: () => this.#tools.delete(name) };
  }

  setTreeDataProvider<T>(viewId: string, provider: vscode.TreeDataProvider<T>): vscode.Disposable {
    return this.view(viewId).attach(provider as vscode.TreeDataProvider<unknown>);
  }

  dispose(): void {
    this.statusBarItem.dispose();
    for (const view of this.#views.values()) view.dispose();
  }
}

/**
 * The view's provider as VS Code sees it. Empty until the runtime supplies the real one — which is
 * what the real one shows while memory is off (the welcome view explains how to turn it on).
 */
class ForwardingTreeDataProvider implements vscode.TreeDataProvider<unknown>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<unknown>();
  readonly onDidChangeTreeData = this.#changed.event;
  #target: vscode.TreeDataProvider<unknown> | undefined;
  #subscription: vscode.Disposable | undefined;

  attach(target: vscode.TreeDataProvider<unknown>): vscode.Disposable {
    this.#subscription?.dispose();
    this.#target = target;
    this.#subscription = target.onDidChangeTreeData?.((node) => this.#changed.fire(node));
    this.#changed.fire(undefined);
    return {
      dispose: () => {
        if (this.#target !== target) return;
        this.#subscription?.dispose();
        this.#target = this.#subscription = undefined;
        this.#changed.fire(undefined);
      },
    };
  }

  getTreeItem(node: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    if (this.#target === undefined) throw new Error('Graphiti Memory: the view has no data yet');
    return this.#target.getTreeItem(node);
  }

  getChildren(node?: unknown): vscode.ProviderResult<unknown[]> {
    return this.#target?.getChildren(node) ?? [];
  }

  getParent(node: unknown): vscode.ProviderResult<unknown> {
    return this.#target?.getParent?.(node);
  }

  dispose(): void {
    this.#subscription?.dispose();
    this.#changed.dispose();
  }
}
