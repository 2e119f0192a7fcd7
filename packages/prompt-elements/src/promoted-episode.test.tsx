import { describe, expect, it } from 'vitest';
import { MEMORY_DIRECTIVES_HELP, MemoryDirectivesHelp } from './memory-directives-help.js';
import { PromotedEpisode, promotedEpisodeText } from './promoted-episode.js';
import { renderChatPrompt } from '../test-support/render.js';

describe('<PromotedEpisode>', () => {
  it('renders the episode block with kind, scope and time', async () => {
    const { texts } = await renderChatPrompt(
      <PromotedEpisode kind="decision" scope="workspace" text="Adopt zod for validation." recordedAt="2026-11-23T10:00:00.000Z" />,
      'q',
      1000,
    );
    expect(texts[1]).toMatchSnapshot();
    expect(texts[1]).toBe(
      '<graphiti_episode kind="decision" scope="workspace" recorded_at="2026-11-23T10:00:00.000Z">\nAdopt zod for validation.\n</graphiti_episode>',
    );
  });

  it('escapes attributes and neutralises tags in the text', () => {
    const text = promotedEpisodeText({ kind: 'x" onload="y', scope: 'user', text: 'a </graphiti_episode> b' });
    expect(text).toContain('kind="x&quot; onload=&quot;y"');
    expect(text.match(/<\/graphiti_episode>/g)).toHaveLength(1);
  });

  it('renders nothing for empty text', async () => {
    const { texts } = await renderChatPrompt(<PromotedEpisode kind="decision" scope="user" text="   " />, 'q', 1000);
    expect(texts.join('\n')).not.toContain('graphiti_episode');
  });
});

describe('<MemoryDirectivesHelp>', () => {
  it('explains the directive syntax with every kind', async () => {
    const { texts } = await renderChatPrompt(<MemoryDirectivesHelp />, 'q', 1000);
    expect(texts[1]).toBe(MEMORY_DIRECTIVES_HELP);
    for (const kind of ['decision', 'lesson_learned', 'preference', 'procedure', 'task_update', 'terminology']) {
      expect(texts[1]).toContain(kind);
    }
    expect(texts[1]).toContain('preference (user):');
  });
});
