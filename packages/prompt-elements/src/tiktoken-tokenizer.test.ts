import { Raw } from '@vscode/prompt-tsx';
import { beforeAll, describe, expect, it } from 'vitest';
import { countTokens, messageText, TiktokenTokenizer } from './tiktoken-tokenizer.js';

const text = (value: string): Raw.ChatCompletionContentPart => ({ type: Raw.ChatCompletionContentPartKind.Text, text: value });
const image: Raw.ChatCompletionContentPart = {
  type: Raw.ChatCompletionContentPartKind.Image,
  imageUrl: { url: 'data:image/png;base64,AAAA' },
};

describe('TiktokenTokenizer', () => {
  // Building the o200k ranks once takes seconds on a loaded machine; that cost is not what the tests measure.
  beforeAll(() => {
    countTokens('warm');
  }, 120_000);

  it('counts o200k tokens, not characters', () => {
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('')).toBe(0);
    // A long word is a few tokens: a character count would say 28.
    expect(countTokens('antidisestablishmentarianism')).toBeLessThan(10);
  });

  it('counts a message as its text parts plus the framing overhead, images as nothing', () => {
    const tokenizer = new TiktokenTokenizer();
    const message: Raw.ChatMessage = { role: Raw.ChatRole.User, content: [text('hello world'), image, text('hello world')] };
    expect(tokenizer.tokenLength(image)).toBe(0);
    expect(tokenizer.countMessageTokens(message)).toBe(3 + 2 + 2);
    expect(messageText(message)).toBe('hello worldhello world');
  });
});
