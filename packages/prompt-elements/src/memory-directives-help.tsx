// `<MemoryDirectivesHelp />`: tells a model (or a person) how to ask for something to be remembered,
// so answers can suggest the directive syntax memory-core recognises.
import { PROMOTION_KINDS } from '@graphiti-memory/memory-core/episode-format';
import { PromptElement, type BasePromptElementProps } from '@vscode/prompt-tsx';

/** The kinds a directive may name: memory-core's promotion kinds themselves. */
export const DIRECTIVE_KINDS = PROMOTION_KINDS;

export const MEMORY_DIRECTIVES_HELP = [
  'The user can ask Graphiti memory to keep something by starting a line of their message with a directive:',
  '  <kind>: <text>            stored for this workspace',
  '  <kind> (workspace): <text>',
  '  <kind> (user): <text>     stored for the user across workspaces',
  `Kinds: ${DIRECTIVE_KINDS.join(', ')}.`,
  'Example: "preference (user): answer with short code samples". Text that contains a secret is never stored.',
].join('\n');

export type MemoryDirectivesHelpProps = BasePromptElementProps;

export class MemoryDirectivesHelp extends PromptElement<MemoryDirectivesHelpProps> {
  override render() {
    return <>{MEMORY_DIRECTIVES_HELP}</>;
  }
}
