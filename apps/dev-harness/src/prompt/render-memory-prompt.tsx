// Renders recalled facts the way the chat participant puts them into a prompt: one
// `<graphiti_memory>` block from prompt-elements, within a token budget.
import { PromptElement, PromptRenderer, UserMessage, type BasePromptElementProps } from '@vscode/prompt-tsx';
import type { RecalledFact } from '@graphiti-memory/memory-core';
import { GraphitiMemory } from '@graphiti-memory/prompt-elements';
import { messageText, TiktokenTokenizer } from '@graphiti-memory/prompt-elements/tiktoken-tokenizer';

/** Default token budget of the memory block. */
export const DEFAULT_PROMPT_BUDGET = 2_000;

interface MemoryPromptProps extends BasePromptElementProps {
  readonly facts: readonly RecalledFact[];
}

class MemoryPrompt extends PromptElement<MemoryPromptProps> {
  override render() {
    return (
      <UserMessage flexGrow={1}>
        <GraphitiMemory facts={this.props.facts} />
      </UserMessage>
    );
  }
}

export interface RenderedMemoryPrompt {
  /** The `<graphiti_memory>` block; empty when there are no facts (or none fits). */
  readonly text: string;
  readonly tokenCount: number;
}

export async function renderMemoryPrompt(facts: readonly RecalledFact[], budget = DEFAULT_PROMPT_BUDGET): Promise<RenderedMemoryPrompt> {
  if (facts.length === 0) return { text: '', tokenCount: 0 };
  const renderer = new PromptRenderer({ modelMaxPromptTokens: budget }, MemoryPrompt, { facts }, new TiktokenTokenizer());
  const result = await renderer.render();
  const text = result.messages.map(messageText).join('\n').trim();
  return { text, tokenCount: text === '' ? 0 : result.tokenCount };
}
