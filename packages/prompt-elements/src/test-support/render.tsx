// Renders elements the way a chat participant does, with a real tokenizer (o200k, GPT-4o's), so
// budget tests measure real token counts rather than characters.
import {
  OutputMode,
  PromptElement,
  PromptRenderer,
  type BasePromptElementProps,
  type ITokenizer,
  type PromptPiece,
  Raw,
  SystemMessage,
  UserMessage,
} from '@vscode/prompt-tsx';
import { getEncoding } from 'js-tiktoken';

const encoding = getEncoding('o200k_base');

export function countTokens(text: string): number {
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

export function messageText(message: Raw.ChatMessage): string {
  return message.content
    .map((part) => (part.type === Raw.ChatCompletionContentPartKind.Text ? part.text : ''))
    .join('');
}

interface ChatPromptProps extends BasePromptElementProps {
  readonly memory: PromptPiece;
  readonly request: string;
}

/** A participant-shaped prompt: system, the memory (flexible, lower priority), then the request. */
class ChatPrompt extends PromptElement<ChatPromptProps> {
  override render() {
    return (
      <>
        <SystemMessage priority={100}>You are a coding assistant.</SystemMessage>
        <UserMessage priority={50} flexGrow={1}>
          {this.props.memory}
        </UserMessage>
        <UserMessage priority={100}>{this.props.request}</UserMessage>
      </>
    );
  }
}

export async function renderChatPrompt(memory: PromptPiece, request: string, budget: number) {
  const tokenizer = new TiktokenTokenizer();
  const renderer = new PromptRenderer({ modelMaxPromptTokens: budget }, ChatPrompt, { memory, request }, tokenizer);
  const result = await renderer.render();
  return { messages: result.messages, tokenCount: result.tokenCount, texts: result.messages.map(messageText) };
}
