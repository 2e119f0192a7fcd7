// The prompt of `@memory`: instructions, the recalled facts as one `<graphiti_memory>` block, the
// conversation so far (with the facts earlier turns gave, once), and the request. Under a tight budget old history goes first, then facts;
// the instructions and the request always stay.
import { AssistantMessage, PrioritizedList, PromptElement, UserMessage, type BasePromptElementProps } from '@vscode/prompt-tsx';
import type { RecalledFact } from '@graphiti-memory/memory-core';
import { GraphitiMemory } from '@graphiti-memory/prompt-elements';

export interface HistoryMessage {
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

export interface MemoryChatPromptProps extends BasePromptElementProps {
  /** Facts this turn adds: not given by an earlier turn of the session, or changed since. */
  readonly facts: readonly RecalledFact[];
  /** Facts earlier turns of the session gave: part of the conversation, pruned with it. */
  readonly earlierFacts?: readonly RecalledFact[];
  readonly history: readonly HistoryMessage[];
  readonly request: string;
}

export const SYSTEM_INSTRUCTIONS =
  'You are a helpful programming assistant in VS Code with a long-term memory of earlier conversations. ' +
  'Answer the user\'s request. Use remembered facts only where they help; they may be stale, and the user\'s words win when they disagree. ' +
  'Do not mention the memory block unless asked about it.';

export class MemoryChatPrompt extends PromptElement<MemoryChatPromptProps> {
  override render() {
    return (
      <>
        {/* A user message: the VS Code language-model API (1.95) has no system role, and prompt-tsx drops system messages in VS Code mode. */}
        <UserMessage priority={100}>{SYSTEM_INSTRUCTIONS}</UserMessage>
        {this.props.facts.length > 0 ? (
          <UserMessage priority={60} flexGrow={2}>
            <GraphitiMemory facts={this.props.facts} />
          </UserMessage>
        ) : undefined}
        <PrioritizedList priority={50} descending={false} flexGrow={1}>
          {(this.props.earlierFacts ?? []).length > 0 ? (
            <UserMessage>
              <GraphitiMemory facts={this.props.earlierFacts ?? []} />
            </UserMessage>
          ) : undefined}
          {this.props.history.map((message) =>
            message.role === 'user' ? <UserMessage>{message.text}</UserMessage> : <AssistantMessage>{message.text}</AssistantMessage>,
          )}
        </PrioritizedList>
        <UserMessage priority={90}>{this.props.request}</UserMessage>
      </>
    );
  }
}
