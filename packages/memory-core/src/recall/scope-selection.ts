// Which scopes a recall searches. `auto` reads the query: the session is always relevant; the
// workspace when the query is about the project; the user's memory when it is about the user.
import type { MemoryScope } from '../ports.js';
import type { RecallScopeSetting } from '../settings/memory-settings.js';

const PROJECT_WORDS =
  /\b(?:repo|repos|repository|repositories|branch|branches|prs?|pull requests?|merge requests?|ci|builds?|pipelines?|this project|the project|our project|codebase|code base|this workspace|commits?|releases?|deploy(?:s|ment)?|tests? suite)\b/i;

const PERSONAL_WORDS =
  /\b(?:my preferences?|i prefer|my setup|what do i call|how do i usually|i usually|i always|my usual|my favou?rite|my workflow|my config(?:uration)?|my style|remind me)\b/i;

/**
 * The scopes of `setting` for `query`, in scope order (session, workspace, user, team). With
 * `team` (the user consented to the team scope), the repository's team memory is searched wherever
 * its workspace memory is.
 */
export function selectScopes(query: string, setting: RecallScopeSetting, options: { readonly team?: boolean } = {}): MemoryScope[] {
  const scopes = namedScopes(query, setting);
  return options.team === true && scopes.includes('workspace') ? [...scopes, 'team'] : scopes;
}

function namedScopes(query: string, setting: RecallScopeSetting): MemoryScope[] {
  switch (setting) {
    case 'session':
    case 'workspace':
      return [setting];
    case 'both':
      return ['session', 'workspace'];
    case 'all':
      return ['session', 'workspace', 'user'];
    case 'auto': {
      const scopes: MemoryScope[] = ['session'];
      if (PROJECT_WORDS.test(query)) scopes.push('workspace');
      if (PERSONAL_WORDS.test(query)) scopes.push('user');
      return scopes;
    }
    default:
      return ['session', 'workspace'];
  }
}
