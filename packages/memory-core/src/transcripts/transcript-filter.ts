// What of a coding-agent transcript becomes memory. Tool calls and their results are most of a
// transcript's size and little of its meaning, so by default a call becomes one line
// (`Read(src/a.ts)`, `Bash(npm test)`) and a result one line (`→ 120 lines`). Code blocks in the
// assistant's replies are the same kind of bulk, so by default each becomes `[code: ts, 42 lines]`.

/** `full` keeps the content, `summary` keeps one line, `omit` drops it. */
export type FilterMode = 'full' | 'summary' | 'omit';

export interface TranscriptFilter {
  /** The user's prompts. `summary` keeps the first 280 characters. */
  readonly user: FilterMode;
  /** The assistant's text. `summary` keeps the first 280 characters. */
  readonly assistant: FilterMode;
  /** Tool calls: `summary` is `Name(main argument)`. */
  readonly toolCalls: FilterMode;
  /** Tool results: `summary` is `→ N lines` (or `→ error, N lines`). */
  readonly toolResults: FilterMode;
  /** Extended thinking: `summary` is `[thinking]`. */
  readonly thinking: FilterMode;
  /**
   * Fenced code blocks in the assistant's text: `summary` is `[code: ts, 42 lines]`. Code the user
   * pasted into a prompt is kept, cut to its first lines unless this is `full` (see `filterPrompt`).
   */
  readonly code: FilterMode;
}

export type TranscriptFilterPreset = 'full' | 'compact' | 'conversation';

export const TRANSCRIPT_FILTER_PRESETS: Readonly<Record<TranscriptFilterPreset, TranscriptFilter>> = {
  /** Everything as it was. */
  full: { user: 'full', assistant: 'full', toolCalls: 'full', toolResults: 'full', thinking: 'full', code: 'full' },
  /**
   * The default: the conversation in full but the code in replies as one line per block, tool
   * calls and results as one line each, no thinking.
   */
  compact: { user: 'full', assistant: 'full', toolCalls: 'summary', toolResults: 'summary', thinking: 'omit', code: 'summary' },
  /** Only what the user and the assistant said, code included. */
  conversation: { user: 'full', assistant: 'full', toolCalls: 'omit', toolResults: 'omit', thinking: 'omit', code: 'full' },
};

export const DEFAULT_TRANSCRIPT_FILTER: TranscriptFilterPreset = 'compact';

/** A preset name, or a preset's modes with some overridden (`{ toolResults: 'omit' }` starts from `compact`). */
export type TranscriptFilterOption = TranscriptFilterPreset | Partial<TranscriptFilter>;

export function resolveTranscriptFilter(option: TranscriptFilterOption | undefined): TranscriptFilter {
  if (option === undefined) return TRANSCRIPT_FILTER_PRESETS[DEFAULT_TRANSCRIPT_FILTER];
  if (typeof option === 'string') {
    return TRANSCRIPT_FILTER_PRESETS[option] ?? TRANSCRIPT_FILTER_PRESETS[DEFAULT_TRANSCRIPT_FILTER];
  }
  return { ...TRANSCRIPT_FILTER_PRESETS[DEFAULT_TRANSCRIPT_FILTER], ...definedModes(option) };
}

function definedModes(option: Partial<TranscriptFilter>): Partial<TranscriptFilter> {
  const modes: Partial<Record<keyof TranscriptFilter, FilterMode>> = {};
  for (const key of ['user', 'assistant', 'toolCalls', 'toolResults', 'thinking', 'code'] as const) {
    const mode = option[key];
    if (mode === 'full' || mode === 'summary' || mode === 'omit') modes[key] = mode;
  }
  return modes;
}

const SUMMARY_TEXT_LENGTH = 280;
const ARGUMENT_LENGTH = 80;

/** Text under a text mode (user and assistant prose). */
export function applyTextMode(text: string, mode: FilterMode): string {
  if (mode === 'omit') return '';
  if (mode === 'summary' && text.length > SUMMARY_TEXT_LENGTH) return `${text.slice(0, SUMMARY_TEXT_LENGTH).trimEnd()}…`;
  return text;
}

/** Lines of a fenced block a prompt keeps when `code` is not `full`. */
const PROMPT_CODE_LINES = 40;

/**
 * A user prompt under `filter`. Code the user pasted is kept: it is their own input (the error,
 * the config, the function they ask about), often the very thing worth remembering, and nothing
 * else in the session records it, whereas code in a reply mostly lands in files the repository
 * keeps, with the prose around it saying what and why. Unless `code` is `full`, a block is cut to
 * its first 40 lines, so a pasted log or file cannot take a digest's whole share.
 */
export function filterPrompt(text: string, filter: TranscriptFilter): string {
  const kept = filter.code === 'full' ? text : mapCodeBlocks(text, capBlock);
  return applyTextMode(kept, filter.user);
}

/** An assistant reply under `filter`: its code blocks per `code`, then the text per `assistant`. */
export function filterReply(text: string, filter: TranscriptFilter): string {
  if (filter.assistant === 'omit') return '';
  let kept = text;
  if (filter.code === 'summary') kept = mapCodeBlocks(text, (block) => (isShortBlock(block) ? wholeBlock(block) : [summarizeCodeBlock(block)]));
  else if (filter.code === 'omit') kept = mapCodeBlocks(text, () => []);
  return applyTextMode(kept, filter.assistant);
}

/** A fenced code block (CommonMark: ``` or ~~~, three or more; unclosed, it runs to the end). */
export interface CodeBlock {
  /** The opening fence line as written (its indentation is kept for the summary). */
  readonly opening: string;
  /** The language or other info after the opening fence, trimmed. */
  readonly info: string;
  readonly body: readonly string[];
  /** The closing fence line; `undefined` when the block runs to the end of the text. */
  readonly closing: string | undefined;
}

const FENCE_OPENING = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const LANGUAGE = /^[\w+#.-]{1,24}$/;
// VS Code's Copilot names the file a block belongs to in its first line: `// filepath: src/a.ts`.
const FILE_PATH_COMMENT = /^\s*(?:\/\/|#|--|;|\/\*|<!--)\s*filepath:\s*([^\s*>]+)/i;

/** `[code: ts, 42 lines]`, with the file when the block names one: `[code: ts, 42 lines, src/a.ts]`. */
export function summarizeCodeBlock(block: CodeBlock): string {
  const indentation = FENCE_OPENING.exec(block.opening)?.[1] ?? '';
  const language = block.info.split(/\s+/)[0] ?? '';
  const lines = block.body.length;
  const filePath = FILE_PATH_COMMENT.exec(block.body[0] ?? '')?.[1];
  const parts = [
    ...(LANGUAGE.test(language) ? [language] : []),
    `${lines} ${lines === 1 ? 'line' : 'lines'}`,
    ...(filePath === undefined ? [] : [shorten(filePath)]),
  ];
  return `${indentation}[code: ${parts.join(', ')}]`;
}

// A block this small (a command, a setting) costs about what its summary would, and is often the
// very thing to remember (`pnpm db:migrate`): it stays as written.
const SHORT_BLOCK_LINES = 3;
const SHORT_BLOCK_CHARS = 160;

function isShortBlock(block: CodeBlock): boolean {
  return block.body.length <= SHORT_BLOCK_LINES && block.body.join('\n').length <= SHORT_BLOCK_CHARS;
}

function wholeBlock(block: CodeBlock, body: readonly string[] = block.body): string[] {
  return [block.opening, ...body, ...(block.closing === undefined ? [] : [block.closing])];
}

function capBlock(block: CodeBlock): string[] {
  const over = block.body.length - PROMPT_CODE_LINES;
  return over <= 0 ? wholeBlock(block) : wholeBlock(block, [...block.body.slice(0, PROMPT_CODE_LINES), `[… ${over} more ${over === 1 ? 'line' : 'lines'}]`]);
}

/** `text` with each fenced code block replaced by `replace`'s lines; blank runs left by dropped blocks collapse. */
function mapCodeBlocks(text: string, replace: (block: CodeBlock) => readonly string[]): string {
  if (!text.includes('```') && !text.includes('~~~')) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  let dropped = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const opening = FENCE_OPENING.exec(line);
    const fence = opening?.[2] ?? '';
    const info = opening?.[3] ?? '';
    // A backtick fence's info cannot hold a backtick: "```a```" on one line is inline code.
    if (opening === null || (fence.startsWith('`') && info.includes('`'))) {
      kept.push(line);
      continue;
    }
    const body: string[] = [];
    let closing: string | undefined;
    for (index += 1; index < lines.length; index += 1) {
      const candidate = lines[index] ?? '';
      if (closesFence(candidate, fence)) {
        closing = candidate;
        break;
      }
      body.push(candidate);
    }
    const replacement = replace({ opening: line, info: info.trim(), body, closing });
    kept.push(...replacement);
    dropped ||= replacement.length === 0;
  }
  const result = kept.join('\n');
  return dropped ? result.replace(/\n{3,}/g, '\n\n').trim() : result;
}

function closesFence(line: string, fence: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= fence.length && trimmed === fence.charAt(0).repeat(trimmed.length);
}

// The argument that says what a tool call did, per well-known tool; others use the first of
// these keys present, then the first string argument.
const ARGUMENT_KEYS: Readonly<Record<string, readonly string[]>> = {
  Read: ['file_path'],
  Write: ['file_path'],
  Edit: ['file_path'],
  MultiEdit: ['file_path'],
  NotebookEdit: ['notebook_path'],
  NotebookRead: ['notebook_path'],
  Bash: ['command'],
  Grep: ['pattern'],
  Glob: ['pattern'],
  LS: ['path'],
  WebFetch: ['url'],
  WebSearch: ['query'],
  Task: ['description'],
  Agent: ['description'],
};
const GENERIC_ARGUMENT_KEYS = ['file_path', 'path', 'command', 'pattern', 'url', 'query', 'description', 'prompt', 'name'];

/** `Name(main argument)`; paths under `cwd` are shown relative to it. */
export function summarizeToolCall(name: string, input: unknown, cwd?: string): string {
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  if (name === 'TodoWrite' && Array.isArray(record['todos'])) return `${name}(${record['todos'].length} todos)`;
  const keys = [...(ARGUMENT_KEYS[name] ?? []), ...GENERIC_ARGUMENT_KEYS];
  let argument = keys.map((key) => record[key]).find((value): value is string => typeof value === 'string');
  argument ??= Object.values(record).find((value): value is string => typeof value === 'string');
  if (argument === undefined) return `${name}()`;
  return `${name}(${shorten(relativeTo(argument, cwd))})`;
}

/** `Name({...input as JSON})`. */
export function fullToolCall(name: string, input: unknown): string {
  let rendered: string;
  try {
    rendered = JSON.stringify(input ?? {}) ?? '';
  } catch {
    rendered = '';
  }
  return `${name}(${rendered})`;
}

/** `→ N lines`, `→ error, N lines` or `→ no output`. */
export function summarizeToolResult(text: string, isError: boolean): string {
  const trimmed = text.replace(/\s+$/, '');
  if (trimmed === '') return isError ? '→ error' : '→ no output';
  let lines = 1;
  for (let index = trimmed.indexOf('\n'); index !== -1; index = trimmed.indexOf('\n', index + 1)) lines += 1;
  const count = `${lines} ${lines === 1 ? 'line' : 'lines'}`;
  return isError ? `→ error, ${count}` : `→ ${count}`;
}

function relativeTo(value: string, cwd: string | undefined): string {
  if (cwd === undefined || cwd === '') return value;
  const base = cwd.replace(/[\\/]+$/, '');
  for (const separator of ['/', '\\']) {
    if (value.startsWith(base + separator)) return value.slice(base.length + 1);
  }
  return value;
}

function shorten(value: string): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > ARGUMENT_LENGTH ? `${line.slice(0, ARGUMENT_LENGTH - 1)}…` : line;
}
