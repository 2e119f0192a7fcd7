// Zod at both edges: requests are checked before they leave (GraphitiUsageError), responses on
// receipt (GraphitiResponseValidationError). Messages name paths and rules, never values: values
// may be memory content.
import type { z } from 'zod';
import { GraphitiResponseValidationError, GraphitiUsageError, type RequestDescription } from './errors.js';
import { addMessagesRequestSchema } from './schemas.js';

/** `messages.0.uuid: never set uuid…; group_id: …`, at most five issues. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 5).map((issue) => {
    const path = issue.path.map(String).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
  const more = issues.length > shown.length ? ` (and ${issues.length - shown.length} more)` : '';
  return shown.join('; ') + more;
}

/** Parses a request body or argument; a mismatch is refused before anything is sent. */
export function parseRequest<Schema extends z.ZodType>(
  operation: string,
  schema: Schema,
  value: unknown,
): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new GraphitiUsageError(
      `${operation} refused its input before sending: ${describeIssues(parsed.error.issues)}. Fix the input and call again.`,
      parsed.error.issues,
    );
  }
  return parsed.data;
}

/**
 * `/messages` with a message `uuid` does not add anything: the server looks the uuid up as an
 * existing episode to re-process and, when it is unknown, its worker dies (upstream #1646).
 */
export const newMessagesRequestSchema = addMessagesRequestSchema.superRefine((request, context) => {
  request.messages.forEach((message, index) => {
    if (message.uuid !== undefined && message.uuid !== null) {
      context.addIssue({
        code: 'custom',
        path: ['messages', index, 'uuid'],
        message:
          'never set uuid for a new message: the server treats it as an existing episode to re-process (upstream #1646); leave uuid out and use name to recognise the episode',
      });
    }
  });
});

/** Parses a 2xx body: JSON first, then the route's schema. */
export function parseResponse<Schema extends z.ZodType>(
  schema: Schema,
  rawBody: string,
  request: RequestDescription & { readonly status: number },
): z.output<Schema> {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch (error) {
    throw new GraphitiResponseValidationError(
      `Graphiti answered ${request.method} ${request.path} (${request.status}) with a body that is not JSON. Check that baseUrl points at the Graphiti service itself, not a proxy page or another app.`,
      { ...request, rawBody, issues: [] },
      { cause: error },
    );
  }
  return checkResponse(schema, json, rawBody, request);
}

/** Checks a 2xx body already parsed from `rawBody` against the route's schema. */
export function checkResponse<Schema extends z.ZodType>(
  schema: Schema,
  json: unknown,
  rawBody: string,
  request: RequestDescription & { readonly status: number },
): z.output<Schema> {
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new GraphitiResponseValidationError(
      `Graphiti answered ${request.method} ${request.path} (${request.status}) with a body of an unexpected shape: ${describeIssues(parsed.error.issues)}. Check that baseUrl points at a Graphiti service and that its version matches graphiti-api.md; the raw body is on error.rawBody.`,
      { ...request, rawBody, issues: parsed.error.issues },
    );
  }
  return parsed.data;
}
