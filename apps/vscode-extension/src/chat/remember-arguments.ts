// `/remember [kind] [scope] text`: the leading words that name a kind or a scope are taken as
// such (`lesson` and `lesson-learned` mean lesson_learned; `project` means workspace, `me` user).
import { PROMOTION_KINDS } from '@graphiti-memory/memory-core';
import type { PromotionScope } from '@graphiti-memory/memory-core';

export interface RememberArguments {
  readonly kind?: string;
  readonly scope?: PromotionScope;
  readonly text: string;
}

const KIND_ALIASES: Record<string, string> = { lesson: 'lesson_learned', task: 'task_update', term: 'terminology' };
const SCOPE_ALIASES: Record<string, PromotionScope> = { workspace: 'workspace', project: 'workspace', user: 'user', me: 'user', personal: 'user' };

export function parseRememberArguments(prompt: string): RememberArguments {
  let rest = prompt.trim();
  let kind: string | undefined;
  let scope: PromotionScope | undefined;
  for (let step = 0; step < 2; step += 1) {
    const match = /^(\S+)(?:\s+|$)/.exec(rest);
    if (!match) break;
    const word = (match[1] ?? '').toLowerCase().replace(/[-\s]/g, '_').replace(/[:,]$/, '');
    const asKind = (PROMOTION_KINDS as readonly string[]).includes(word) ? word : KIND_ALIASES[word];
    const asScope = SCOPE_ALIASES[word];
    if (kind === undefined && asKind !== undefined) kind = asKind;
    else if (scope === undefined && asScope !== undefined) scope = asScope;
    else break;
    rest = rest.slice(match[0].length);
  }
  return { ...(kind === undefined ? {} : { kind }), ...(scope === undefined ? {} : { scope }), text: rest.trim() };
}
