// The chat and language-model value classes of the `vscode` module (1.95), for the test double.
import type * as vscode from 'vscode';
import { MarkdownString } from './basics.js';

export enum LanguageModelChatMessageRole {
  User = 1,
  Assistant = 2,
}

export class LanguageModelTextPart implements vscode.LanguageModelTextPart {
  constructor(public value: string) {}
}

export class LanguageModelPromptTsxPart implements vscode.LanguageModelPromptTsxPart {
  constructor(public value: unknown) {}
}

export class LanguageModelToolCallPart implements vscode.LanguageModelToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}

export class LanguageModelToolResultPart implements vscode.LanguageModelToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}

type MessageContent = (LanguageModelTextPart | LanguageModelToolResultPart | LanguageModelToolCallPart)[];

export class LanguageModelChatMessage implements vscode.LanguageModelChatMessage {
  static User(content: string | MessageContent, name?: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(LanguageModelChatMessageRole.User, content, name);
  }
  static Assistant(content: string | MessageContent, name?: string): LanguageModelChatMessage {
    return new LanguageModelChatMessage(LanguageModelChatMessageRole.Assistant, content, name);
  }
  role: LanguageModelChatMessageRole;
  content: MessageContent;
  name: string | undefined;
  constructor(role: LanguageModelChatMessageRole, content: string | MessageContent, name?: string) {
    this.role = role;
    this.content = typeof content === 'string' ? [new LanguageModelTextPart(content)] : content;
    this.name = name;
  }
}

/** The text of a message, as a model would read it (test helper). */
export function messageText(message: vscode.LanguageModelChatMessage): string {
  return message.content.map((part) => (part instanceof LanguageModelTextPart ? part.value : '')).join('');
}

export class LanguageModelToolResult implements vscode.LanguageModelToolResult {
  constructor(public content: (LanguageModelTextPart | LanguageModelPromptTsxPart | unknown)[]) {}
}

export class LanguageModelError extends Error {
  static NoPermissions(message?: string): LanguageModelError {
    return new LanguageModelError(message ?? 'no permissions', 'NoPermissions');
  }
  static Blocked(message?: string): LanguageModelError {
    return new LanguageModelError(message ?? 'blocked', 'Blocked');
  }
  static NotFound(message?: string): LanguageModelError {
    return new LanguageModelError(message ?? 'not found', 'NotFound');
  }
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export class ChatRequestTurn {
  constructor(
    readonly prompt: string,
    readonly command: string | undefined,
    readonly references: readonly vscode.ChatPromptReference[],
    readonly participant: string,
    readonly toolReferences: readonly vscode.ChatLanguageModelToolReference[] = [],
  ) {}
}

export class ChatResponseMarkdownPart {
  value: MarkdownString;
  constructor(value: string | MarkdownString) {
    this.value = typeof value === 'string' ? new MarkdownString(value) : value;
  }
}

export class ChatResponseTurn {
  constructor(
    readonly response: readonly unknown[],
    readonly result: vscode.ChatResult,
    readonly participant: string,
    readonly command?: string,
  ) {}
}

export enum ChatResultFeedbackKind {
  Unhelpful = 0,
  Helpful = 1,
}

export enum LanguageModelChatToolMode {
  Auto = 1,
  Required = 2,
}
