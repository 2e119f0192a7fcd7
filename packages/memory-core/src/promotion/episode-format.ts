// The text of promoted memories and of the ownership context: one `<graphiti_episode>` block per
// episode, sent as a `role_type: "system"` message. Runtime-safe on purpose (no runtime imports):
// it is also the `./episode-format` export, which prompt-elements renders the same blocks with. Graphiti extracts facts from this text, and
// recall renders it back into prompts, so the block must never be spoofable from inside: text that
// contains the tag is neutralised and attribute values are escaped.
import type { MemoryScope } from '../ports.js';

/** The kinds of curated memory a user (or a directive) can promote. */
export const PROMOTION_KINDS = [
  'decision',
  'lesson_learned',
  'preference',
  'procedure',
  'task_update',
  'terminology',
] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];

/** Scopes a promotion may target: promotions outlive a session by definition. */
export type PromotionScope = 'workspace' | 'user' | 'team';
export const PROMOTION_SCOPES: readonly PromotionScope[] = ['workspace', 'user', 'team'];

export function isPromotionScope(value: unknown): value is PromotionScope {
  return typeof value === 'string' && (PROMOTION_SCOPES as readonly string[]).includes(value);
}

export function isPromotionKind(value: unknown): value is PromotionKind {
  return typeof value === 'string' && (PROMOTION_KINDS as readonly string[]).includes(value);
}

export interface PromotionEpisodeInput {
  readonly kind: PromotionKind;
  readonly scope: PromotionScope;
  readonly text: string;
  readonly at: Date;
  /** Team memories: the display name the author chose to share (one line); none when empty. */
  readonly author?: string;
  /** What the memory applies to (seed 000's APPLIES_TO): the repository, its branch, the files it names. */
  readonly appliesTo?: PromotionAppliesTo;
}

export interface PromotionAppliesTo {
  /** The normalised git remote (`github.com/ada/engine`): never a local path, never credentials. */
  readonly repository?: string;
  /** Only when git metadata is on (`includeGitMetadata`). */
  readonly branch?: string;
  /** Repository-relative paths the memory's text names. */
  readonly files?: readonly string[];
}

/**
 * Formats a promoted memory:
 * `<graphiti_episode kind="decision" scope="workspace" recorded_at="2026-01-02T03:04:05.000Z">\n…\n</graphiti_episode>`.
 * The text is trimmed; a `<graphiti_episode` or `</graphiti_episode` inside it is neutralised.
 * Throws (a caller bug) for an unknown kind or scope, or an invalid date.
 */
export function formatPromotionEpisode(input: PromotionEpisodeInput): string {
  if (!isPromotionKind(input.kind)) {
    throw new TypeError(
      `formatPromotionEpisode: unknown kind ${JSON.stringify(input.kind)}; use one of ${PROMOTION_KINDS.join(', ')}.`,
    );
  }
  if (!isPromotionScope(input.scope)) {
    throw new TypeError(
      `formatPromotionEpisode: scope must be one of ${PROMOTION_SCOPES.join(', ')}, got ${JSON.stringify(input.scope)}.`,
    );
  }
  const author = input.scope === 'team' ? singleLine(input.author ?? '') : '';
  const applies = appliesToAttributes(input.appliesTo);
  const appliesLine = appliesToLine(applies);
  return episodeBlock(
    { kind: input.kind, scope: input.scope, ...(author === '' ? {} : { author }), recorded_at: isoTime(input.at, 'formatPromotionEpisode'), ...applies },
    neutraliseEpisodeTags(input.text.trim()) + (appliesLine === '' ? '' : `\n${neutraliseEpisodeTags(appliesLine)}`),
  );
}

export interface OwnershipContextInput {
  readonly scope: MemoryScope;
  /** Who owns the memory: a display name or account label (never a path). */
  readonly owner: string;
  /** The workspace's name; only its last path segment is used, so no path leaves the machine. */
  readonly workspaceName?: string;
  readonly at: Date;
}

/**
 * Formats the ownership context of a group: whose memory it is and what it holds, so facts
 * extracted from it are attributed to the right person and project. Contains no paths.
 */
export function formatOwnershipContext(input: OwnershipContextInput): string {
  const owner = singleLine(input.owner) || 'the user';
  const workspace = input.workspaceName === undefined ? '' : lastPathSegment(singleLine(input.workspaceName));
  const workspaceLabel = workspace === '' ? 'the current workspace' : `the workspace "${workspace}"`;
  let text: string;
  switch (input.scope) {
    case 'session':
      text =
        `This memory group holds one chat session of ${owner} in ${workspaceLabel}. ` +
        `Facts in it come from that conversation.`;
      break;
    case 'workspace':
      text =
        `This memory group holds the long-term memory of ${workspaceLabel}, owned by ${owner}. ` +
        `Facts in it describe that project: its decisions, procedures, terminology and tasks.`;
      break;
    case 'user':
      text =
        `This memory group holds the personal long-term memory of ${owner}. ` +
        `Facts in it are ${owner}'s preferences, lessons and terminology, shared across all of their workspaces.`;
      break;
    case 'team':
      text =
        `This memory group holds the memory a team shares for ${workspaceLabel}: decisions, procedures and terminology ` +
        `its members chose to share. Each episode names its author when the author gave a name.`;
      break;
    default:
      throw new TypeError(
        `formatOwnershipContext: scope must be "session", "workspace" or "user", got ${JSON.stringify(input.scope)}.`,
      );
  }
  return episodeBlock(
    { kind: 'ownership_context', scope: input.scope, recorded_at: isoTime(input.at, 'formatOwnershipContext') },
    neutraliseEpisodeTags(text),
  );
}

/**
 * One `<graphiti_episode …>` block: attribute values escaped, episode and memory tags in `text`
 * neutralised. The low-level shape shared by memory-core and prompt-elements; it checks nothing.
 */
export function formatEpisodeBlock(attributes: Readonly<Record<string, string>>, text: string): string {
  return episodeBlock(attributes, neutraliseEpisodeTags(text));
}

function appliesToAttributes(appliesTo: PromotionAppliesTo | undefined): Record<string, string> {
  const repository = singleLine(appliesTo?.repository ?? '');
  const branch = singleLine(appliesTo?.branch ?? '');
  const files = (appliesTo?.files ?? []).map(singleLine).filter((file) => file !== '');
  return {
    ...(repository === '' ? {} : { repository }),
    ...(branch === '' ? {} : { branch }),
    ...(files.length === 0 ? {} : { files: files.join(', ') }),
  };
}

/** The same, as a sentence extraction reads (`Applies to repository …, branch …, files ….`). */
function appliesToLine(attributes: Readonly<Record<string, string>>): string {
  const parts = [
    attributes['repository'] === undefined ? '' : `repository ${attributes['repository']}`,
    attributes['branch'] === undefined ? '' : `branch ${attributes['branch']}`,
    attributes['files'] === undefined ? '' : `files ${attributes['files']}`,
  ].filter((part) => part !== '');
  return parts.length === 0 ? '' : `Applies to ${parts.join(', ')}.`;
}

function episodeBlock(attributes: Readonly<Record<string, string>>, body: string): string {
  const rendered = Object.entries(attributes)
    .map(([name, value]) => `${name}="${escapeAttribute(value)}"`)
    .join(' ');
  return `<graphiti_episode ${rendered}>\n${body}\n</graphiti_episode>`;
}

// `<` and its look-alikes (full-width, small-form, angle brackets).
const TAG_OPENER = /[<\uff1c\ufe64\u2329\u3008\u27e8]/gu;
// What follows an opener, once look-alikes are folded (NFKC) and invisible characters (Cf: zero-width,
// bidi controls, BOM) dropped: spaces, a slash or backslash, `graphiti`, a separator, the tag name.
const TAG_REST = /^[\s/\\]*graphiti[\s_-]*(?:episode|memory)/iu;
/** Far enough past an opener to see the tag name behind any padding an attacker would use. */
const TAG_LOOKAHEAD = 64;

/**
 * The opener of any opening or closing episode (or recalled-memory) tag becomes `&lt;`, so text cannot
 * end or nest a block, nor break out of the `<graphiti_memory>` block it is later recalled into. Every
 * variant counts: spaces, case, a backslash, zero-width or bidi characters inside, full-width `＜／`.
 */
export function neutraliseEpisodeTags(text: string): string {
  return text.replace(TAG_OPENER, (opener: string, offset: number) => {
    const rest = text.slice(offset + opener.length, offset + opener.length + TAG_LOOKAHEAD).normalize('NFKC').replace(/\p{Cf}/gu, '');
    return TAG_REST.test(rest) ? '&lt;' : opener;
  });
}

/**
 * How a promotion's episode is named: `promotionMessageName` gives `graphiti-memory.promotion.<32 hex>`.
 * Spelled out here because this module has no runtime imports; a test keeps the two in step.
 */
const PROMOTION_EPISODE_NAME = /^graphiti-memory\.promotion\.[0-9a-f]{32}$/;

/** Whether `name` is the name the product gives a promoted memory's episode (a chat turn's never is). */
export function isPromotionEpisodeName(name: string): boolean {
  return PROMOTION_EPISODE_NAME.test(name);
}

export interface ParsedEpisodeBlock {
  readonly attributes: Readonly<Record<string, string>>;
  /** The text between the tags, as stored (episode tags in it stay neutralised). */
  readonly text: string;
}

const BLOCK_PATTERN = /^<graphiti_episode((?:\s+[a-z_]+="[^"]*")*)\s*>\n([\s\S]*)\n<\/graphiti_episode>$/;
const ATTRIBUTE_PATTERN = /([a-z_]+)="([^"]*)"/g;

/**
 * The one block `formatEpisodeBlock` writes, when it is the whole of `content` (trailing whitespace
 * aside); `undefined` for anything else, a block quoted inside other text included.
 */
export function parseEpisodeBlock(content: string): ParsedEpisodeBlock | undefined {
  const match = BLOCK_PATTERN.exec(content.trimEnd());
  if (match === null) return undefined;
  const text = match[2] ?? '';
  // The formatter neutralises every episode tag in the text; a raw one means someone else wrote this.
  if (/<\s*\/?\s*graphiti_episode/i.test(text)) return undefined;
  const attributes: Record<string, string> = {};
  for (const [, name, value] of (match[1] ?? '').matchAll(ATTRIBUTE_PATTERN)) {
    if (name !== undefined && value !== undefined) attributes[name] = unescapeAttribute(value);
  }
  return { attributes, text };
}

export interface StoredPromotion {
  readonly kind: PromotionKind;
  readonly scope: PromotionScope;
  /** The `recorded_at` attribute (ISO 8601), as written. */
  readonly recordedAt: string;
  readonly text: string;
  /** Team memories: the author's display name, when they gave one. */
  readonly author?: string;
}

/**
 * Graphiti stores a message as `"{role or ''}({role_type}): {content}"` (both faces); a promotion is
 * sent with no role and `role_type: "system"`.
 */
const STORED_PROMOTION_PREFIX = '(system): ';

/**
 * The promoted memory an episode read back from Graphiti holds, or `undefined` when the episode is
 * not one the product promoted: its name must be a promotion's name, its stored body a system
 * message, and that message exactly one episode block of a known kind and scope. Content alone never
 * makes a promotion, so a chat turn quoting the markup stays a chat turn.
 */
export function parsePromotionEpisode(episode: { readonly name: string; readonly content: string }): StoredPromotion | undefined {
  if (!isPromotionEpisodeName(episode.name) || !episode.content.startsWith(STORED_PROMOTION_PREFIX)) return undefined;
  const block = parseEpisodeBlock(episode.content.slice(STORED_PROMOTION_PREFIX.length));
  if (block === undefined) return undefined;
  const { kind, scope, recorded_at: recordedAt, author } = block.attributes;
  const text = block.text.trim();
  if (!isPromotionKind(kind) || !isPromotionScope(scope) || recordedAt === undefined || text === '') return undefined;
  const name = scope === 'team' && author !== undefined ? singleLine(author) : '';
  return { kind, scope, recordedAt, text, ...(name === '' ? {} : { author: name }) };
}

function unescapeAttribute(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function isoTime(at: Date, caller: string): string {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
    throw new TypeError(`${caller}: \`at\` must be a valid Date, got ${String(at)}.`);
  }
  return at.toISOString();
}

function singleLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function lastPathSegment(value: string): string {
  const segments = value.split(/[\\/]+/).filter((segment) => segment.trim() !== '');
  return (segments[segments.length - 1] ?? '').trim();
}

/**
 * How a recalled fact or promoted memory names its scope in every rendering (prompt, brief,
 * terminal), without brackets: `workspace`, and for the shared team scope `team · Alice` when the
 * author gave a name, else `team`.
 */
export function scopeLabel(item: { readonly scope: string; readonly author?: string | undefined; readonly unverified?: boolean | undefined }): string {
  const author = item.scope === 'team' ? singleLine(item.author ?? '') : '';
  const label = author === '' ? item.scope : `${item.scope} · ${author}`;
  // Graphiti has no authentication: a team memory no known install of this team wrote says so.
  return item.scope === 'team' && item.unverified === true ? `${label} (unverified)` : label;
}
