import { describe, expect, it } from 'vitest';
import { sseData } from './mcp-fetch.js';

describe('sseData', () => {
  it('takes the data of each event, joining multi-line data and skipping data-less events', () => {
    const body = 'event: message\r\nid: 1\r\ndata: {"a":1}\r\n\r\n: comment\n\nevent: message\ndata: {"b":\ndata: 2}\n\n';
    expect(sseData(body)).toEqual(['{"a":1}', '{"b":\n2}']);
  });

  it('answers nothing for a body without events', () => {
    expect(sseData('')).toEqual([]);
  });
});
