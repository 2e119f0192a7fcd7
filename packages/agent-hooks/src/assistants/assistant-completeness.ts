// Whether a descriptor says everything an assistant needs said. The list of fields is typed against
// the descriptor (adding a field to the interface fails to compile until it is listed here), and
// each is checked at run time over the registry (assistant-registry.test.ts), so a descriptor built
// loosely (a cast, a spread of something partial) cannot leave one out either.
import { HANDLER_EVENTS, TRUST_STEPS, type AssistantDescriptor, type HookFileFormat, type HookInputDescriptor, type HookOutputDescriptor, type TranscriptDescriptor, type DetectionDescriptor, type McpClientDescriptor } from './assistant-descriptor.js';

type Check = (value: unknown) => string | undefined;

const text: Check = (value) => (typeof value === 'string' && value.trim() !== '' ? undefined : 'must be a non-empty string');
const flag: Check = (value) => (typeof value === 'boolean' ? undefined : 'must be true or false');
const fn: Check = (value) => (typeof value === 'function' ? undefined : 'must be a function');
const strings =
  (nonEmpty: boolean): Check =>
  (value) =>
    Array.isArray(value) && value.every((item) => typeof item === 'string' && item !== '') && (!nonEmpty || value.length > 0) ? undefined : `must be a list of names${nonEmpty ? ' (at least one)' : ''}`;
const handlers: Check = (value) => (Array.isArray(value) && value.every((item) => (HANDLER_EVENTS as readonly unknown[]).includes(item)) ? undefined : `must list our handlers (${HANDLER_EVENTS.join(', ')})`);
const oneOf =
  (...choices: readonly string[]): Check =>
  (value) =>
    typeof value === 'string' && choices.includes(value) ? undefined : `must be one of ${choices.join(', ')}`;
const perHandler =
  (each: Check): Check =>
  (value) => {
    if (value === null || typeof value !== 'object') return 'must name each of our handlers';
    for (const event of HANDLER_EVENTS) {
      if (!(event in value)) return `lacks ${event}`;
      const problem = each((value as Record<string, unknown>)[event]);
      if (problem !== undefined) return `${event} ${problem}`;
    }
    return undefined;
  };
const object =
  <T>(fields: { readonly [K in keyof Required<T>]: Check }): Check =>
  (value) => {
    if (value === null || typeof value !== 'object') return 'must be an object';
    for (const [key, check] of Object.entries(fields) as Array<[string, Check]>) {
      if (!(key in value)) return `lacks ${key}`;
      const problem = check((value as Record<string, unknown>)[key]);
      if (problem !== undefined) return `${key} ${problem}`;
    }
    return undefined;
  };

const FORMAT = object<HookFileFormat>({
  layout: oneOf('grouped', 'flat'),
  commandKeys: (value) => {
    const keys = value as { posix?: unknown; windows?: unknown } | null;
    if (keys === null || typeof keys !== 'object' || !('posix' in keys) || !('windows' in keys)) return 'must name posix and windows (null: none)';
    return text(keys.posix) ?? (keys.windows === null ? undefined : text(keys.windows));
  },
  timeoutKey: text,
  timeoutUnit: oneOf('seconds', 'milliseconds'),
  named: flag,
  shared: flag,
  agentArgument: flag,
});

const FIELDS: { readonly [K in keyof Required<AssistantDescriptor>]: Check } = {
  target: (value) => (typeof value === 'string' && /^[a-z][a-z0-9-]*$/.test(value) ? undefined : 'must be a lower-case name (the --target value)'),
  name: text,
  hookFile: object<AssistantDescriptor['hookFile']>({ path: fn, format: FORMAT }),
  events: (value) => {
    const problem = perHandler((name) => (name === null ? undefined : text(name)))(value);
    if (problem !== undefined) return problem;
    const named = value as Record<string, unknown>;
    return ['SessionStart', 'UserPromptSubmit', 'Stop'].some((event) => named[event] === null) ? 'must name session start, prompt and turn end (only the session end may be null)' : undefined;
  },
  timeoutSeconds: perHandler((value) => (typeof value === 'number' && value > 0 ? undefined : 'must be a positive number')),
  startsBesidePrompt: flag,
  input: object<HookInputDescriptor>({
    fieldCase: oneOf('snake_case', 'camelCase'),
    eventName: strings(false),
    sessionId: strings(true),
    transcriptPath: strings(true),
    transcriptPathOn: handlers,
    transcriptPathOf: (value) => (value === null ? undefined : fn(value)),
    cwd: strings(true),
    prompt: strings(true),
    lastReply: strings(false),
    ownContextTags: strings(false),
  }),
  output: object<HookOutputDescriptor>({ shape: oneOf('hook-specific', 'flat'), contextOn: handlers, systemMessage: flag }),
  transcript: object<TranscriptDescriptor>({ formats: strings(true), location: text, finishedTurn: text, contextLifetime: fn }),
  detection: object<DetectionDescriptor>({
    homeFolders: strings(false),
    homeFolderPrefixes: strings(false),
    commands: strings(false),
  }),
  trust: (value) => (value === null ? undefined : object<NonNullable<AssistantDescriptor['trust']>>({ step: oneOf(...TRUST_STEPS), manualStep: text })(value)),
  mcp: (value) => (value === null ? undefined : object<McpClientDescriptor>({ target: text, label: text, format: oneOf('json', 'toml'), key: text, file: fn, entry: fn })(value)),
};

/** What the descriptor lacks or gets wrong, one line each (`<field> …`); empty when complete. */
export function descriptorProblems(descriptor: unknown): string[] {
  if (descriptor === null || typeof descriptor !== 'object') return ['the descriptor must be an object'];
  const problems: string[] = [];
  for (const [key, check] of Object.entries(FIELDS) as Array<[string, Check]>) {
    if (!(key in descriptor)) {
      problems.push(`lacks ${key}`);
      continue;
    }
    const problem = check((descriptor as Record<string, unknown>)[key]);
    if (problem !== undefined) problems.push(`${key} ${problem}`);
  }
  const detection = (descriptor as Partial<AssistantDescriptor>).detection;
  if (detection !== undefined && detection.homeFolders.length + detection.homeFolderPrefixes.length + detection.commands.length === 0) problems.push('detection must name a home folder or a command');
  return problems;
}
