// `<PromotedEpisode>`: a curated memory (decision, preference, …) shown to a model or a person in
// the same `<graphiti_episode>` shape memory-core sends to Graphiti, so what is confirmed is what
// is stored.
import { PromptElement, type BasePromptElementProps } from '@vscode/prompt-tsx';
import { sanitiseFactText } from './fact-lines.js';

export interface PromotedEpisodeProps extends BasePromptElementProps {
  /** decision, lesson_learned, preference, procedure, task_update or terminology. */
  readonly kind: string;
  readonly scope: 'workspace' | 'user';
  readonly text: string;
  /** When it was (or will be) recorded; ISO 8601. */
  readonly recordedAt?: string;
}

function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The episode block as text: one place decides its shape for every element and caller. */
export function promotedEpisodeText(props: Omit<PromotedEpisodeProps, keyof BasePromptElementProps>): string {
  const attributes = [`kind="${attribute(props.kind)}"`, `scope="${attribute(props.scope)}"`];
  if (props.recordedAt !== undefined) attributes.push(`recorded_at="${attribute(props.recordedAt)}"`);
  const body = props.text
    .trim()
    .split('\n')
    .map((line) => line.replace(/<\/?\s*graphiti_(memory|episode)/gi, (tag) => tag.replace('<', '‹')))
    .join('\n');
  return `<graphiti_episode ${attributes.join(' ')}>\n${body}\n</graphiti_episode>`;
}

export class PromotedEpisode extends PromptElement<PromotedEpisodeProps> {
  override render() {
    if (sanitiseFactText(this.props.text) === '') return undefined;
    return <>{promotedEpisodeText(this.props)}</>;
  }
}
