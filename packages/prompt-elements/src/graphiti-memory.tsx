// `<GraphitiMemory facts={…} />`: recalled facts as one `<graphiti_memory>` block. Data arrives as
// props (no DI), so the element renders the same in the extension, the harness and tests.
import { PromptElement, type BasePromptElementProps, type PromptSizing } from '@vscode/prompt-tsx';
import type { RecalledFact } from '@graphiti-memory/memory-core';
import { fitMemoryBlock } from './fact-lines.js';

export interface GraphitiMemoryProps extends BasePromptElementProps {
  /** Recalled facts; `rank` decides which are dropped first (highest rank first) when short of budget. */
  readonly facts: readonly RecalledFact[];
}

/**
 * Renders nothing when there are no facts or not one fits; otherwise the facts that fit in the
 * element's token budget, whole, most relevant first. Give it `flexGrow={1}` so it takes what the
 * rest of the prompt leaves, and a priority below the user's request so it yields first.
 */
export class GraphitiMemory extends PromptElement<GraphitiMemoryProps> {
  override async render(_state: void, sizing: PromptSizing) {
    if (this.props.facts.length === 0) return undefined;
    const fitted = await fitMemoryBlock(this.props.facts, sizing.tokenBudget, (text) => sizing.countTokens(text));
    if (fitted === undefined) return undefined;
    return <>{fitted.text}</>;
  }
}
