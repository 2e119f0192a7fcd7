// The facts an `@memory` answer used, as chat references: VS Code lists them under "Used N
// references" (collapsible), each named by the fact and its date; opening one shows the fact as a
// read-only document of its own scheme (its dates, scope and the episodes it came from).
import { injectable } from 'inversify';
import * as vscode from 'vscode';
import type { RecalledFact } from '@graphiti-memory/memory-core';
import { sanitiseFactText } from '@graphiti-memory/prompt-elements';
import type { Contribution } from '../composition/tokens.js';
import { factDates } from '../episodes/memory-tree.js';

export const FACT_SCHEME = 'graphiti-memory-fact';
/** Facts kept for their documents: the references of the last answers, not a store. */
export const FACTS_KEPT = 200;
const NAME_MAX = 90;

/** The reference's name: the fact in one line and its date (no `/`, which would cut the name). */
export function referenceName(fact: RecalledFact): string {
  const text = sanitiseFactText(fact.fact).replace(/\s+/g, ' ').replace(/\//g, '∕').trim();
  const dated = ` (${factDates(fact)})`;
  const room = NAME_MAX - dated.length;
  return `${text.length > room ? `${text.slice(0, room - 1)}…` : text}${dated}`;
}

export function factDocument(fact: RecalledFact): string {
  const cited = fact.episodes ?? [];
  return [
    '# A fact Graphiti Memory recalled',
    '',
    sanitiseFactText(fact.fact),
    '',
    `- Holds: ${factDates(fact)}`,
    `- Scope: ${fact.scope} memory`,
    `- Relation: ${sanitiseFactText(fact.name)}`,
    `- Came from: ${cited.length === 0 ? 'not said by this Graphiti server' : `${cited.length} episode(s): ${cited.join(', ')}`}`,
    '',
    'Recalled memory may be stale: the current code and your own words win when they disagree.',
    '',
  ].join('\n');
}

@injectable()
export class RecalledFactDocuments implements Contribution, vscode.TextDocumentContentProvider {
  readonly #facts = new Map<string, RecalledFact>();

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(FACT_SCHEME, this));
  }

  /** The reference to stream for `fact`; its document stays readable for the next answers. */
  uriOf(fact: RecalledFact): vscode.Uri {
    this.#facts.delete(fact.uuid);
    this.#facts.set(fact.uuid, fact);
    for (const uuid of this.#facts.keys()) {
      if (this.#facts.size <= FACTS_KEPT) break;
      this.#facts.delete(uuid);
    }
    return vscode.Uri.from({ scheme: FACT_SCHEME, path: `/${referenceName(fact)}`, query: new URLSearchParams({ fact: fact.uuid }).toString() });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const fact = this.#facts.get(new URLSearchParams(uri.query).get('fact') ?? '');
    return fact === undefined ? '# Fact no longer available\n\nAsk `@memory` again, or run `/recall`, to see what memory recalls now.\n' : factDocument(fact);
  }
}
