// `<PromotedEpisode>`: a curated memory (decision, preference, …) shown to a model or a person in
// the same `<graphiti_episode>` shape memory-core sends to Graphiti — formatted by memory-core's
// runtime-safe episode format itself, so what is confirmed is what is stored.
import { formatEpisodeBlock } from '@graphiti-memory/memory-core/episode-format';
import { PromptElement, type BasePromptElementProps } from '@vscode/prompt-tsx';
import { sanitiseFactText } from './fact-lines.js';

export interface PromotedEpisodeProps extends BasePromptElementProps {
  /** decision, lesson_learned, preference, procedure, task_update or terminology. */
  readonly kind: string;
  readonly scope: 'workspace' | 'user' | 'team';
  readonly text: string;
  /** When it was (or will be) recorded; ISO 8601. */
  readonly recordedAt?: string;
}

/** The episode block as text (memory-core's format): escaped attributes, neutralised tags. */
export function promotedEpisodeText(props: Omit<PromotedEpisodeProps, keyof BasePromptElementProps>): string {
  return formatEpisodeBlock(
    { kind: props.kind, scope: props.scope, ...(props.recordedAt === undefined ? {} : { recorded_at: props.recordedAt }) },
    props.text.trim(),
  );
}

export class PromotedEpisode extends PromptElement<PromotedEpisodeProps> {
  override render() {
    if (sanitiseFactText(this.props.text) === '') return undefined;
    return <>{promotedEpisodeText(this.props)}</>;
  }
}
