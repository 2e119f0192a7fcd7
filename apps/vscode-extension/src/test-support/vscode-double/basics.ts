// The value classes and enums of the `vscode` module, as small working implementations. Each class
// `implements` its real counterpart where the shape allows, so a drift from @types/vscode fails
// typechecking instead of passing tests against an API that does not exist.
import path from 'node:path';
import type * as vscode from 'vscode';

export class Disposable implements vscode.Disposable {
  static from(...items: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => {
      for (const item of items) item.dispose();
    });
  }
  #callOnDispose: (() => unknown) | undefined;
  constructor(callOnDispose: () => unknown) {
    this.#callOnDispose = callOnDispose;
  }
  dispose(): void {
    const call = this.#callOnDispose;
    this.#callOnDispose = undefined;
    call?.();
  }
}

export class EventEmitter<T> implements vscode.EventEmitter<T> {
  #listeners = new Set<(event: T) => unknown>();
  readonly event: vscode.Event<T> = (listener, thisArgs?, disposables?) => {
    const bound = (value: T) => listener.call(thisArgs, value);
    this.#listeners.add(bound);
    const disposable = new Disposable(() => this.#listeners.delete(bound));
    disposables?.push(disposable);
    return disposable;
  };
  fire(data: T): void {
    for (const listener of [...this.#listeners]) listener(data);
  }
  dispose(): void {
    this.#listeners.clear();
  }
  /** Test helper: how many listeners are attached (to check that contributions clean up). */
  get listenerCount(): number {
    return this.#listeners.size;
  }
}

export class CancellationTokenSource implements vscode.CancellationTokenSource {
  #emitter = new EventEmitter<unknown>();
  #cancelled = false;
  readonly token: vscode.CancellationToken = {
    isCancellationRequested: false,
    onCancellationRequested: this.#emitter.event,
  };
  cancel(): void {
    if (this.#cancelled) return;
    this.#cancelled = true;
    (this.token as { isCancellationRequested: boolean }).isCancellationRequested = true;
    this.#emitter.fire(undefined);
  }
  dispose(): void {
    this.#emitter.dispose();
  }
}

/** A token that is never cancelled. */
export function noCancellation(): vscode.CancellationToken {
  return new CancellationTokenSource().token;
}

interface UriParts {
  scheme: string;
  authority: string;
  path: string;
  query: string;
  fragment: string;
}

export class Uri implements vscode.Uri {
  static file(filePath: string): Uri {
    return new Uri({ scheme: 'file', authority: '', path: filePath.split(path.sep).join('/'), query: '', fragment: '' });
  }
  static parse(value: string): Uri {
    const match = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!match) throw new Error(`Uri.parse (test double): not a URI: ${value}`);
    return new Uri({
      scheme: match[1] ?? '',
      authority: match[2] ?? '',
      path: decodeURIComponent(match[3] ?? ''),
      query: match[4] ?? '',
      fragment: match[5] ?? '',
    });
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    return base.with({ path: path.posix.join(base.path, ...segments) });
  }
  static from(components: Partial<UriParts> & { scheme: string }): Uri {
    return new Uri({ authority: '', path: '', query: '', fragment: '', ...components });
  }

  readonly scheme: string;
  readonly authority: string;
  readonly path: string;
  readonly query: string;
  readonly fragment: string;
  private constructor(parts: UriParts) {
    this.scheme = parts.scheme;
    this.authority = parts.authority;
    this.path = parts.path;
    this.query = parts.query;
    this.fragment = parts.fragment;
  }
  get fsPath(): string {
    return this.path.split('/').join(path.sep);
  }
  with(change: Partial<UriParts>): Uri {
    return new Uri({
      scheme: change.scheme ?? this.scheme,
      authority: change.authority ?? this.authority,
      path: change.path ?? this.path,
      query: change.query ?? this.query,
      fragment: change.fragment ?? this.fragment,
    });
  }
  toString(): string {
    const authority = this.scheme === 'file' || this.authority !== '' ? `//${this.authority}` : '';
    const query = this.query === '' ? '' : `?${this.query}`;
    const fragment = this.fragment === '' ? '' : `#${this.fragment}`;
    return `${this.scheme}:${authority}${encodeURI(this.path)}${query}${fragment}`;
  }
  toJSON(): UriParts {
    return { scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment };
  }
}

export class ThemeColor implements vscode.ThemeColor {
  constructor(readonly id: string) {}
}

export class ThemeIcon implements vscode.ThemeIcon {
  static readonly File = new ThemeIcon('file');
  static readonly Folder = new ThemeIcon('folder');
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}

export class MarkdownString implements vscode.MarkdownString {
  value: string;
  isTrusted?: boolean | { readonly enabledCommands: readonly string[] };
  supportThemeIcons?: boolean;
  supportHtml?: boolean;
  baseUri?: vscode.Uri;
  constructor(value = '', supportThemeIcons = false) {
    this.value = value;
    this.supportThemeIcons = supportThemeIcons;
  }
  appendText(value: string): MarkdownString {
    this.value += value.replace(/[\\`*_{}[\]()#+\-.!]/g, '\\$&');
    return this;
  }
  appendMarkdown(value: string): MarkdownString {
    this.value += value;
    return this;
  }
  appendCodeblock(value: string, language = ''): MarkdownString {
    this.value += `\n\`\`\`${language}\n${value}\n\`\`\`\n`;
    return this;
  }
}

export class Position implements Pick<vscode.Position, 'line' | 'character'> {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
}

// Only the shape the extension reads: the real Position/Range carry comparison methods we never call.
export class Range implements Pick<vscode.Range, 'isEmpty'> {
  constructor(
    readonly start: Position,
    readonly end: Position,
  ) {}
  get isEmpty(): boolean {
    return this.start.line === this.end.line && this.start.character === this.end.character;
  }
}

export class Selection extends Range {
  constructor(
    readonly anchor: Position,
    readonly active: Position,
  ) {
    super(anchor, active);
  }
}

export class TreeItem implements vscode.TreeItem {
  label?: string | vscode.TreeItemLabel;
  id?: string;
  iconPath?: Exclude<vscode.TreeItem['iconPath'], undefined>;
  description?: string | boolean;
  resourceUri?: vscode.Uri;
  tooltip?: string | vscode.MarkdownString;
  command?: vscode.Command;
  collapsibleState?: vscode.TreeItemCollapsibleState;
  contextValue?: string;
  constructor(label: string | vscode.TreeItemLabel, collapsibleState?: vscode.TreeItemCollapsibleState) {
    this.label = label;
    if (collapsibleState !== undefined) this.collapsibleState = collapsibleState;
  }
}

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export enum StatusBarAlignment {
  Left = 1,
  Right = 2,
}

export enum ConfigurationTarget {
  Global = 1,
  Workspace = 2,
  WorkspaceFolder = 3,
}

export enum ProgressLocation {
  SourceControl = 1,
  Window = 10,
  Notification = 15,
}

export enum LogLevel {
  Off = 0,
  Trace = 1,
  Debug = 2,
  Info = 3,
  Warning = 4,
  Error = 5,
}

export enum ExtensionMode {
  Production = 1,
  Development = 2,
  Test = 3,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}
