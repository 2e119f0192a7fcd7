// A real tokenizer (o200k, GPT-4o's) for prompt-tsx in Raw mode, so a prompt rendered outside
// VS Code (the dev harness, tests) is budgeted in the tokens a model would count. Its own subpath
// (`@graphiti-memory/prompt-elements/tiktoken-tokenizer`): js-tiktoken is an optional peer that
// only its users install, and the package's main entry never loads it.
import { OutputMode, Raw, type ITokenizer } from '@vscode/prompt-tsx';
import { getEncoding, type Tiktoken } from 'js-tiktoken';

// Built on first use: loading the ranks costs tens of milliseconds.
let encoding: Tiktoken | undefined;

/** Tokens of `text` in o200k. */
export function countTokens(text: string): number {
  encoding ??= getEncoding('o200k_base');
  return encoding.encode(text).length;
}

export class TiktokenTokenizer implements ITokenizer<OutputMode.Raw> {
  readonly mode = OutputMode.Raw;

  tokenLength(part: Raw.ChatCompletionContentPart): number {
    return part.type === Raw.ChatCompletionContentPartKind.Text ? countTokens(part.text) : 0;
  }

  countMessageTokens(message: Raw.ChatMessage): number {
    // Per-message framing overhead as OpenAI counts it, plus the text parts.
    let total = 3;
    for (const part of message.content) total += this.tokenLength(part);
    return total;
  }
}

/** The text parts of a rendered message, joined. */
export function messageText(message: Raw.ChatMessage): string {
  return message.content.map((part) => (part.type === Raw.ChatCompletionContentPartKind.Text ? part.text : '')).join('');
}
