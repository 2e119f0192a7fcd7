// Renders elements the way a chat participant does, with a real tokenizer (o200k, GPT-4o's), so
// budget tests measure real token counts rather than characters.
import {
  PromptElement,
  PromptRenderer,
  type BasePromptElementProps,
  type PromptPiece,
  SystemMessage,
  UserMessage,
} from '@vscode/prompt-tsx';
import { messageText, TiktokenTokenizer } from '../src/tiktoken-tokenizer.js';

export { countTokens } from '../src/tiktoken-tokenizer.js';

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
