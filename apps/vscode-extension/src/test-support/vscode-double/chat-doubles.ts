// Doubles for driving a chat participant: a scripted language model that streams text and records
// the prompts it received, a response stream that records every part, and a request builder.
import type * as vscode from 'vscode';
import { CancellationTokenSource, type MarkdownString, Uri } from './basics.js';
import { LanguageModelChatMessage, LanguageModelTextPart, messageText } from './chat-types.js';

export interface FakeModelOptions {
  /** Chunks the model streams back; a function builds them from the prompt. */
  readonly reply?: readonly string[] | ((prompt: string) => readonly string[]);
  /** Throw this instead of answering (a model that failed or refused). */
  readonly failWith?: Error;
  /** Called between chunks: tests cancel here. */
  readonly onChunk?: (index: number) => void;
  readonly maxInputTokens?: number;
  /** Who the model is (`selectChatModels` matches on these); default `fake-model` of family `fake`. */
  readonly id?: string;
  readonly family?: string;
}

/** A `LanguageModelChat` that answers from a script and records every request. */
export class FakeLanguageModel implements vscode.LanguageModelChat {
  readonly id: string;
  readonly name = 'Fake Model';
  readonly vendor = 'test';
  readonly family: string;
  readonly version = '1';
  readonly maxInputTokens: number;
  readonly requests: { messages: vscode.LanguageModelChatMessage[]; prompt: string; cancelled: () => boolean; options?: vscode.LanguageModelChatRequestOptions }[] = [];
  constructor(private readonly options: FakeModelOptions = {}) {
    this.maxInputTokens = options.maxInputTokens ?? 8192;
    this.id = options.id ?? 'fake-model';
    this.family = options.family ?? 'fake';
  }
  async countTokens(text: string | vscode.LanguageModelChatMessage): Promise<number> {
    const value = typeof text === 'string' ? text : text instanceof LanguageModelChatMessage ? messageText(text) : JSON.stringify(text);
    return Math.ceil(value.length / 4);
  }
  async sendRequest(
    messages: vscode.LanguageModelChatMessage[],
    options?: vscode.LanguageModelChatRequestOptions,
    token?: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelChatResponse> {
    const prompt = messages.map(messageText).join('\n');
    this.requests.push({ messages, prompt, cancelled: () => token?.isCancellationRequested === true, ...(options === undefined ? {} : { options }) });
    if (this.options.failWith) throw this.options.failWith;
    const reply = this.options.reply ?? ['An answer.'];
    const chunks = typeof reply === 'function' ? reply(prompt) : reply;
    const onChunk = this.options.onChunk;
    async function* text(): AsyncGenerator<string> {
      for (const [index, chunk] of chunks.entries()) {
        if (token?.isCancellationRequested) return;
        onChunk?.(index);
        yield chunk;
      }
    }
    async function* stream(): AsyncGenerator<LanguageModelTextPart> {
      for await (const chunk of text()) yield new LanguageModelTextPart(chunk);
    }
    return { text: text(), stream: stream() };
  }
  /** The prompt text of the last request. */
  lastPrompt(): string {
    return this.requests.at(-1)?.prompt ?? '';
  }
}

export type RecordedPart =
  | { readonly kind: 'markdown'; readonly value: string }
  | { readonly kind: 'progress'; readonly value: string }
  | { readonly kind: 'reference'; readonly value: string }
  | { readonly kind: 'button'; readonly command: string; readonly title: string }
  | { readonly kind: 'anchor'; readonly value: string };

/** A `ChatResponseStream` that records what the participant wrote. */
export class ChatResponseStreamDouble implements Pick<vscode.ChatResponseStream, 'markdown' | 'progress' | 'reference' | 'button' | 'anchor'> {
  readonly parts: RecordedPart[] = [];
  markdown(value: string | MarkdownString | vscode.MarkdownString): void {
    this.parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value });
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  reference(value: vscode.Uri | vscode.Location): void {
    this.parts.push({ kind: 'reference', value: 'uri' in value ? value.uri.toString() : value.toString() });
  }
  button(command: vscode.Command): void {
    this.parts.push({ kind: 'button', command: command.command, title: command.title });
  }
  anchor(value: vscode.Uri | vscode.Location): void {
    this.parts.push({ kind: 'anchor', value: 'uri' in value ? value.uri.toString() : value.toString() });
  }
  push(): void {}
  /** All markdown written, concatenated. */
  text(): string {
    return this.parts
      .filter((part): part is { kind: 'markdown'; value: string } => part.kind === 'markdown')
      .map((part) => part.value)
      .join('');
  }
  asStream(): vscode.ChatResponseStream {
    return this as unknown as vscode.ChatResponseStream;
  }
}

export interface ChatRequestInput {
  readonly prompt: string;
  readonly command?: string;
  readonly model?: vscode.LanguageModelChat;
}

export function createChatRequest(input: ChatRequestInput): vscode.ChatRequest {
  return {
    prompt: input.prompt,
    command: input.command,
    references: [],
    toolReferences: [],
    toolInvocationToken: undefined as unknown as vscode.ChatParticipantToolToken,
    model: input.model ?? new FakeLanguageModel(),
  };
}

export function createChatContext(history: vscode.ChatContext['history'] = []): vscode.ChatContext {
  return { history };
}

export function cancellation(): CancellationTokenSource {
  return new CancellationTokenSource();
}

export const workspaceFolderUri = (folder: string): vscode.Uri => Uri.file(folder);
