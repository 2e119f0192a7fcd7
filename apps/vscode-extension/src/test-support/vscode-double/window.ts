// `vscode.window` of the test double: dialogs answered from the test host's script, and status bar
// items, output channels and tree views that record what the extension did with them.
import type * as vscode from 'vscode';
import { CancellationTokenSource, EventEmitter, LogLevel, Position, Selection, type StatusBarAlignment } from './basics.js';
import { onTestHostReset, testHost, type MessageSeverity, type ShownMessage } from './test-host.js';

export class StatusBarItemDouble {
  #text = '';
  /** Every text the item showed, in order: a state the extension passes through quickly still counts. */
  readonly texts: string[] = [];
  get text(): string {
    return this.#text;
  }
  set text(value: string) {
    this.#text = value;
    this.texts.push(value);
  }
  tooltip: string | vscode.MarkdownString | undefined;
  command: string | vscode.Command | undefined;
  backgroundColor: vscode.ThemeColor | undefined;
  name: string | undefined;
  accessibilityInformation: vscode.AccessibilityInformation | undefined;
  visible = false;
  disposed = false;
  constructor(
    readonly id: string | undefined,
    readonly alignment: StatusBarAlignment | undefined,
    readonly priority: number | undefined,
  ) {}
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
  }
  dispose(): void {
    this.disposed = true;
    this.visible = false;
  }
}

export interface LoggedLine {
  readonly level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'append';
  readonly text: string;
}

export class LogOutputChannelDouble {
  readonly lines: LoggedLine[] = [];
  readonly #levelChanged = new EventEmitter<vscode.LogLevel>();
  readonly onDidChangeLogLevel = this.#levelChanged.event;
  logLevel: vscode.LogLevel = LogLevel.Info;
  shown = 0;
  disposed = false;
  constructor(readonly name: string) {}
  #log(level: LoggedLine['level'], message: string | Error, args: unknown[]): void {
    const text = [message instanceof Error ? message.message : message, ...args.map((arg) => JSON.stringify(arg))].join(' ');
    this.lines.push({ level, text });
  }
  trace(message: string, ...args: unknown[]): void {
    this.#log('trace', message, args);
  }
  debug(message: string, ...args: unknown[]): void {
    this.#log('debug', message, args);
  }
  info(message: string, ...args: unknown[]): void {
    this.#log('info', message, args);
  }
  warn(message: string, ...args: unknown[]): void {
    this.#log('warn', message, args);
  }
  error(message: string | Error, ...args: unknown[]): void {
    this.#log('error', message, args);
  }
  append(value: string): void {
    this.lines.push({ level: 'append', text: value });
  }
  appendLine(value: string): void {
    this.lines.push({ level: 'append', text: value });
  }
  replace(value: string): void {
    this.lines.length = 0;
    this.append(value);
  }
  clear(): void {
    this.lines.length = 0;
  }
  show(): void {
    this.shown += 1;
  }
  hide(): void {}
  dispose(): void {
    this.disposed = true;
  }
  /** Everything logged, one line per entry (test helper). */
  text(): string {
    return this.lines.map((line) => `[${line.level}] ${line.text}`).join('\n');
  }
}

export class TreeViewDouble<T> {
  message: string | undefined;
  title: string | undefined;
  description: string | undefined;
  badge: vscode.ViewBadge | undefined;
  visible = true;
  readonly selection: T[] = [];
  readonly #visibility = new EventEmitter<vscode.TreeViewVisibilityChangeEvent>();
  readonly onDidChangeVisibility = this.#visibility.event;
  readonly onDidChangeSelection = new EventEmitter<vscode.TreeViewSelectionChangeEvent<T>>().event;
  readonly onDidExpandElement = new EventEmitter<vscode.TreeViewExpansionEvent<T>>().event;
  readonly onDidCollapseElement = new EventEmitter<vscode.TreeViewExpansionEvent<T>>().event;
  readonly onDidChangeCheckboxState = new EventEmitter<vscode.TreeCheckboxChangeEvent<T>>().event;
  disposed = false;
  constructor(
    readonly id: string,
    readonly treeDataProvider: vscode.TreeDataProvider<T>,
  ) {}
  setVisible(visible: boolean): void {
    this.visible = visible;
    this.#visibility.fire({ visible });
  }
  reveal(): Thenable<void> {
    return Promise.resolve();
  }
  dispose(): void {
    this.disposed = true;
  }
}

const registry = {
  statusBarItems: [] as StatusBarItemDouble[],
  outputChannels: [] as LogOutputChannelDouble[],
  treeViews: new Map<string, TreeViewDouble<unknown>>(),
  /** Untitled documents the extension opened and showed: their language and text. */
  shownDocuments: [] as { readonly languageId: string; readonly text: string }[],
};
onTestHostReset(() => {
  registry.shownDocuments = [];
  registry.statusBarItems = [];
  registry.outputChannels = [];
  registry.treeViews = new Map();
});

/** What the extension created through `vscode.window` (test helper). */
export function windowRegistry(): Readonly<typeof registry> {
  return registry;
}

type MessageItemLike = string | vscode.MessageItem;

function showMessage(severity: MessageSeverity, message: string, rest: unknown[]): Promise<MessageItemLike | undefined> {
  const first = rest[0];
  const options = typeof first === 'object' && first !== null && !('title' in first) ? (first as vscode.MessageOptions) : undefined;
  const items = (options ? rest.slice(1) : rest) as MessageItemLike[];
  const titles = items.map((item) => (typeof item === 'string' ? item : item.title));
  const shown: ShownMessage = { severity, message, modal: options?.modal === true, detail: options?.detail, items: titles };
  const host = testHost();
  host.shownMessages.push(shown);
  const pick = (answer: string | undefined): MessageItemLike | undefined => {
    if (answer === undefined) return undefined;
    const index = titles.indexOf(answer);
    if (index < 0) {
      throw new Error(`vscode double: the test answered "${answer}" but the message "${message}" offers ${JSON.stringify(titles)}`);
    }
    return items[index];
  };
  const answer = host.answers.messages.shift()?.(shown);
  // A promised answer is a dialog the user leaves open until the test settles it.
  return answer instanceof Promise ? answer.then(pick) : Promise.resolve(pick(answer));
}

function labelOf(item: string | vscode.QuickPickItem): string {
  return typeof item === 'string' ? item : item.label;
}

async function showQuickPick(
  items: readonly (string | vscode.QuickPickItem)[] | Thenable<readonly (string | vscode.QuickPickItem)[]>,
  options?: vscode.QuickPickOptions,
): Promise<string | vscode.QuickPickItem | undefined> {
  const resolved = await items;
  const host = testHost();
  const shown = { items: resolved.map((item) => (typeof item === 'string' ? { label: item } : item)), options };
  host.shownQuickPicks.push(shown);
  const answer = host.answers.quickPicks.shift()?.(shown);
  if (answer === undefined) return undefined;
  const picked = resolved.find((item) => labelOf(item) === answer);
  if (picked === undefined) {
    throw new Error(`vscode double: the test picked "${answer}" but the quick pick offers ${JSON.stringify(resolved.map(labelOf))}`);
  }
  return picked;
}

async function showInputBox(options?: vscode.InputBoxOptions): Promise<string | undefined> {
  const host = testHost();
  const answer = host.answers.inputBoxes.shift()?.({ options });
  if (answer !== undefined && options?.validateInput) {
    const verdict = await options.validateInput(answer);
    const validationMessage = typeof verdict === 'string' ? verdict : verdict?.message;
    if (validationMessage) {
      host.shownInputBoxes.push({ options, validationMessage });
      return undefined;
    }
  }
  host.shownInputBoxes.push({ options });
  return answer;
}

export const window = {
  showInformationMessage: (message: string, ...rest: unknown[]) => showMessage('information', message, rest),
  showWarningMessage: (message: string, ...rest: unknown[]) => showMessage('warning', message, rest),
  showErrorMessage: (message: string, ...rest: unknown[]) => showMessage('error', message, rest),
  showQuickPick,
  showInputBox,
  createStatusBarItem(idOrAlignment?: string | StatusBarAlignment, alignmentOrPriority?: StatusBarAlignment | number, priority?: number) {
    const item =
      typeof idOrAlignment === 'string'
        ? new StatusBarItemDouble(idOrAlignment, alignmentOrPriority as StatusBarAlignment | undefined, priority)
        : new StatusBarItemDouble(undefined, idOrAlignment, alignmentOrPriority);
    registry.statusBarItems.push(item);
    return item as unknown as vscode.StatusBarItem;
  },
  createOutputChannel(name: string, _options?: { log: true } | string) {
    const channel = new LogOutputChannelDouble(name);
    registry.outputChannels.push(channel);
    return channel as unknown as vscode.LogOutputChannel;
  },
  createTreeView<T>(viewId: string, options: vscode.TreeViewOptions<T>) {
    const view = new TreeViewDouble<T>(viewId, options.treeDataProvider);
    registry.treeViews.set(viewId, view as TreeViewDouble<unknown>);
    return view as unknown as vscode.TreeView<T>;
  },
  async showTextDocument(document: vscode.TextDocument): Promise<vscode.TextEditor> {
    registry.shownDocuments.push({ languageId: document.languageId, text: document.getText() });
    return { document } as unknown as vscode.TextEditor;
  },
  get activeTextEditor(): vscode.TextEditor | undefined {
    const editor = testHost().activeEditor;
    if (!editor) return undefined;
    const selection = new Selection(new Position(0, 0), new Position(0, editor.selectedText.length));
    return { selection, document: { getText: () => editor.selectedText } } as unknown as vscode.TextEditor;
  },
  async withProgress<R>(
    _options: vscode.ProgressOptions,
    task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>,
  ): Promise<R> {
    return task({ report: () => undefined }, new CancellationTokenSource().token);
  },
} satisfies Partial<Record<keyof typeof vscode.window, unknown>>;
