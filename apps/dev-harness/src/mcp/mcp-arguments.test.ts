import { describe, expect, it } from 'vitest';
import { servesMcp } from './mcp-arguments.js';

describe('servesMcp', () => {
  it('takes the server itself, with its own flags, to the fast path', () => {
    expect(servesMcp(['mcp'])).toBe(true);
    expect(servesMcp(['mcp', 'serve'])).toBe(true);
    expect(servesMcp(['mcp', '--state-dir', '/s', '--workspace', '/w', '--installed-by', 'graphiti-harness'])).toBe(true);
    expect(servesMcp(['mcp', 'serve', '--state-dir', '/s'])).toBe(true);
  });

  it('leaves install, uninstall, help, other commands and unknown flags to the full CLI', () => {
    expect(servesMcp(['mcp', 'install', '--target', 'claude'])).toBe(false);
    expect(servesMcp(['mcp', 'uninstall', '--target', 'codex'])).toBe(false);
    expect(servesMcp(['mcp', '--help'])).toBe(false);
    expect(servesMcp(['mcp', 'serve', '-h'])).toBe(false);
    expect(servesMcp(['mcp', '--endpoint', 'http://x'])).toBe(false);
    expect(servesMcp(['recall', 'mcp'])).toBe(false);
    expect(servesMcp([])).toBe(false);
  });
});
