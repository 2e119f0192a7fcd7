// Hand-written validators that answer the way FastAPI + Pydantic v2 do: every problem collected,
// in field declaration order, as `{type, loc, msg, input[, ctx]}` entries of a 422 `detail` list.
// Lax mode like Pydantic: numeric strings pass as integers, numbers pass as Unix timestamps.

export type Location = readonly (string | number)[];

export interface ValidationIssue {
  type: string;
  loc: (string | number)[];
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

const INVALID: unique symbol = Symbol('invalid');
type Invalid = typeof INVALID;

export type Validator<T> = (input: unknown, loc: Location, issues: ValidationIssue[]) => T | Invalid;

export interface FieldSpec<T> {
  readonly validate: Validator<T>;
  /** Present: the key may be omitted. Absent: the key is required (even when `null` is allowed). */
  readonly default?: () => T;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

function issue(issues: ValidationIssue[], entry: ValidationIssue): Invalid {
  issues.push(entry);
  return INVALID;
}

export const string: Validator<string> = (input, loc, issues) =>
  typeof input === 'string'
    ? input
    : issue(issues, { type: 'string_type', loc: [...loc], msg: 'Input should be a valid string', input });

export const integer: Validator<number> = (input, loc, issues) => {
  if (typeof input === 'boolean') return input ? 1 : 0;
  if (typeof input === 'number') {
    if (Number.isInteger(input)) return input;
    if (Number.isFinite(input)) {
      return issue(issues, {
        type: 'int_from_float',
        loc: [...loc],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        input,
      });
    }
  }
  if (typeof input === 'string') {
    const trimmed = input.trim();
    if (/^[+-]?\d+$/.test(trimmed)) return Number.parseInt(trimmed, 10);
    return issue(issues, {
      type: 'int_parsing',
      loc: [...loc],
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      input,
    });
  }
  return issue(issues, { type: 'int_type', loc: [...loc], msg: 'Input should be a valid integer', input });
};

export function nullable<T>(validate: Validator<T>): Validator<T | null> {
  return (input, loc, issues) => (input === null ? null : validate(input, loc, issues));
}

export function literal<T extends string>(values: readonly T[]): Validator<T> {
  const quoted = values.map((value) => `'${value}'`);
  const expected =
    quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1] ?? ''}` : (quoted[0] ?? '');
  return (input, loc, issues) =>
    (values as readonly unknown[]).includes(input)
      ? (input as T)
      : issue(issues, {
          type: 'literal_error',
          loc: [...loc],
          msg: `Input should be ${expected}`,
          input,
          ctx: { expected },
        });
}

export function list<T>(item: Validator<T>): Validator<T[]> {
  return (input, loc, issues) => {
    if (!Array.isArray(input)) {
      return issue(issues, { type: 'list_type', loc: [...loc], msg: 'Input should be a valid list', input });
    }
    const before = issues.length;
    const values = input.map((entry: unknown, index) => item(entry, [...loc, index], issues));
    return issues.length === before ? (values as T[]) : INVALID;
  };
}

const DATE_TIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6}))?)?(Z|z|[+-]\d{2}:?\d{2})?)?$/;

/** Epoch milliseconds. A datetime without an offset is taken as UTC (upstream would keep it naive). */
export const dateTime: Validator<number> = (input, loc, issues) => {
  if (typeof input === 'number' && Number.isFinite(input)) {
    // Pydantic reads large numbers as milliseconds, others as seconds.
    return Math.abs(input) > 2e10 ? input : input * 1000;
  }
  if (typeof input !== 'string') {
    return issue(issues, { type: 'datetime_type', loc: [...loc], msg: 'Input should be a valid datetime', input });
  }
  if (/^\d+(\.\d+)?$/.test(input)) return dateTime(Number(input), loc, issues);
  const match = DATE_TIME_PATTERN.exec(input);
  const epoch = match === null ? Number.NaN : epochFromMatch(match);
  if (!Number.isNaN(epoch)) return epoch;
  const reason =
    input.length < 10
      ? 'input is too short'
      : !/^\d{4}/.test(input)
        ? 'invalid character in year'
        : match === null
          ? 'unexpected extra characters at the end of the input'
          : 'value is outside expected range';
  return issue(issues, {
    type: 'datetime_from_date_parsing',
    loc: [...loc],
    msg: `Input should be a valid datetime or date, ${reason}`,
    input,
    ctx: { error: reason },
  });
};

function epochFromMatch(match: RegExpExecArray): number {
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', offset] = match;
  const parts = [year, month, day, hour, minute, second].map(Number) as [number, number, number, number, number, number];
  const [y, mo, d, h, mi, s] = parts;
  const utc = Date.UTC(y, mo - 1, d, h, mi, s, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const check = new Date(utc);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return Number.NaN;
  if (offset === undefined || offset === 'Z' || offset === 'z') return utc;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
  return utc - sign * minutes * 60_000;
}

type Fields<T> = { readonly [K in keyof T]: FieldSpec<T[K]> };

/** A Pydantic model: extra keys ignored, missing required keys reported with the whole object as input. */
export function model<T>(className: string, fields: Fields<T>): Validator<T> {
  return (input, loc, issues) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return issue(issues, {
        type: 'model_type',
        loc: [...loc],
        msg: `Input should be a valid dictionary or instance of ${className}`,
        input,
        ctx: { class_name: className },
      });
    }
    const record = input as Record<string, unknown>;
    const before = issues.length;
    const output: Record<string, unknown> = {};
    for (const key of Object.keys(fields) as (keyof T & string)[]) {
      const spec = fields[key];
      if (!Object.hasOwn(record, key)) {
        if (spec.default !== undefined) output[key] = spec.default();
        else issue(issues, { type: 'missing', loc: [...loc, key], msg: 'Field required', input });
        continue;
      }
      const value = spec.validate(record[key], [...loc, key], issues);
      if (value !== INVALID) output[key] = value;
    }
    return issues.length === before ? (output as T) : INVALID;
  };
}

/** Validates a request body the way FastAPI does (locations start with `"body"`). */
export function validateBody<T>(validate: Validator<T>, body: unknown): ValidationResult<T> {
  const issues: ValidationIssue[] = [];
  if (body === undefined || body === null) {
    return { ok: false, issues: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] };
  }
  const value = validate(body, ['body'], issues);
  return value === INVALID ? { ok: false, issues } : { ok: true, value };
}

/** Validates one required integer query parameter (`/episodes?last_n=`). */
export function validateIntegerQuery(name: string, raw: string | undefined): ValidationResult<number> {
  if (raw === undefined) {
    return { ok: false, issues: [{ type: 'missing', loc: ['query', name], msg: 'Field required', input: null }] };
  }
  const issues: ValidationIssue[] = [];
  const value = integer(raw, ['query', name], issues);
  return value === INVALID ? { ok: false, issues } : { ok: true, value };
}
