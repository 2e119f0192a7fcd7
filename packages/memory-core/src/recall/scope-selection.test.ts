import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selectScopes } from './scope-selection.js';

describe('selectScopes', () => {
  it('maps the fixed settings', () => {
    expect(selectScopes('anything', 'session')).toEqual(['session']);
    expect(selectScopes('anything', 'workspace')).toEqual(['workspace']);
    expect(selectScopes('anything', 'both')).toEqual(['session', 'workspace']);
    expect(selectScopes('anything', 'all')).toEqual(['session', 'workspace', 'user']);
  });

  it.each([
    ['what did we just say about that?', ['session']],
    ['which branch has the fix?', ['session', 'workspace']],
    ['why did CI fail on my PR', ['session', 'workspace']],
    ['is there an open pull request for the parser', ['session', 'workspace']],
    ['how is this project built', ['session', 'workspace']],
    ['where in the codebase is auth', ['session', 'workspace']],
    ['how does the repo handle builds', ['session', 'workspace']],
    ['what is my preference for tabs', ['session', 'user']],
    ['I prefer short answers, right?', ['session', 'user']],
    ['what do I call the staging box', ['session', 'user']],
    ['describe my setup', ['session', 'user']],
    ['my preference for the build in this repo', ['session', 'workspace', 'user']],
    // Words that only contain a keyword do not count.
    ['a specific principle of cipher suites', ['session']],
  ] as const)('auto: %j → %j', (query, scopes) => {
    expect(selectScopes(query, 'auto')).toEqual(scopes);
  });

  it('auto always includes the session first and keeps scope order (property)', () => {
    fc.assert(
      fc.property(fc.string(), (query) => {
        const scopes = selectScopes(query, 'auto');
        expect(scopes[0]).toBe('session');
        const order = ['session', 'workspace', 'user'];
        expect([...scopes].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(scopes);
        expect(new Set(scopes).size).toBe(scopes.length);
      }),
    );
  });
});

describe('selectScopes with the team scope consented', () => {
  it('adds team wherever the workspace is searched, and nowhere else', () => {
    expect(selectScopes('anything', 'both', { team: true })).toEqual(['session', 'workspace', 'team']);
    expect(selectScopes('anything', 'all', { team: true })).toEqual(['session', 'workspace', 'user', 'team']);
    expect(selectScopes('anything', 'session', { team: true })).toEqual(['session']);
    expect(selectScopes('what is in this repo', 'auto', { team: true })).toEqual(['session', 'workspace', 'team']);
    expect(selectScopes('anything', 'both')).toEqual(['session', 'workspace']);
  });
});
