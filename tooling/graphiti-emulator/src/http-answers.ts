// The answers FastAPI gives, as plain data the server writes out.
import type { ValidationIssue } from './validation.js';

export interface RouteAnswer {
  readonly status: number;
  /** JSON body; when absent, `text` is sent as text/plain. */
  readonly json?: unknown;
  readonly text?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export const json = (status: number, body: unknown): RouteAnswer => ({ status, json: body });

export const result = (message: string, status = 200): RouteAnswer => json(status, { message, success: true });

export const validationFailed = (issues: readonly ValidationIssue[]): RouteAnswer => json(422, { detail: issues });

export const detail = (status: number, text: string): RouteAnswer => json(status, { detail: text });

/** Starlette's answer to anything unhandled. */
export const internalServerError = (): RouteAnswer => ({ status: 500, text: 'Internal Server Error' });

/**
 * FastAPI's 422 for a body that is not JSON. `loc` carries the character offset like Python's
 * `JSONDecodeError.pos`; the offset and wording are approximated from V8's error.
 */
export function jsonDecodeFailed(bodyText: string, error: unknown): RouteAnswer {
  const message = error instanceof Error ? error.message : '';
  const position = /position (\d+)/.exec(message);
  const token = /Unexpected token '?(.)'?/.exec(message);
  const offset = position
    ? Number(position[1])
    : /Unexpected end/.test(message) || token === null
      ? bodyText.length
      : Math.max(0, bodyText.indexOf(token[1] ?? ''));
  const reason = /property name/.test(message)
    ? 'Expecting property name enclosed in double quotes'
    : /Expected ',' or/.test(message)
      ? "Expecting ',' delimiter"
      : 'Expecting value';
  return validationFailed([
    { type: 'json_invalid', loc: ['body', offset], msg: 'JSON decode error', input: {}, ctx: { error: reason } },
  ]);
}
