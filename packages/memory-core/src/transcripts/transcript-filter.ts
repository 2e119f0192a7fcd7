// What of a coding-agent transcript becomes memory. Tool calls and their results are most of a
// transcript's size and little of its meaning, so by default a call becomes one line
// (`Read(src/a.ts)`, `Bash(npm test)`) and a result one line (`→ 120 lines`).

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
}

export type TranscriptFilterPreset = 'full' | 'compact' | 'conversation';

export const TRANSCRIPT_FILTER_PRESETS: Readonly<Record<TranscriptFilterPreset, TranscriptFilter>> = {
  /** Everything as it was. */
  full: { user: 'full', assistant: 'full', toolCalls: 'full', toolResults: 'full', thinking: 'full' },
  /** The default: the conversation in full, tool calls and results as one line each, no thinking. */
  compact: { user: 'full', assistant: 'full', toolCalls: 'summary', toolResults: 'summary', thinking: 'omit' },
  /** Only what the user and the assistant said. */
  conversation: { user: 'full', assistant: 'full', toolCalls: 'omit', toolResults: 'omit', thinking: 'omit' },
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
  for (const key of ['user', 'assistant', 'toolCalls', 'toolResults', 'thinking'] as const) {
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
