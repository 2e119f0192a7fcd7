// A non-2xx answer → the matching GraphitiApiError. Messages carry the status, route and FastAPI's
// `loc`/`msg` (never `input`, which echoes what was sent and may be memory content).
import {
  GraphitiApiError,
  GraphitiNotFoundError,
  GraphitiRateLimitError,
  GraphitiServerError,
  GraphitiValidationError,
  type ApiErrorInit,
  type RequestDescription,
} from '../errors.js';
import { parseRetryAfter } from '../retry-after.js';
import { detailErrorBodySchema, validationErrorBodySchema } from '../schemas.js';

const MAX_TEXT_IN_MESSAGE = 200;

function parseBody(rawBody: string): unknown {
  if (rawBody === '') return rawBody;
  try {
    return JSON.parse(rawBody) as unknown;
  } catch {
    return rawBody;
  }
}

function shorten(text: string): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length > MAX_TEXT_IN_MESSAGE ? `${single.slice(0, MAX_TEXT_IN_MESSAGE)}…` : single;
}

export function apiErrorFromResponse(
  request: RequestDescription,
  status: number,
  headers: Readonly<Record<string, string>>,
  rawBody: string,
): GraphitiApiError {
  const body = parseBody(rawBody);
  const init: ApiErrorInit = {
    ...request,
    status,
    body,
    headers,
    retryAfterMs: parseRetryAfter(headers['retry-after']),
  };
  const route = `${request.method} ${request.path}`;

  if (status === 404) {
    const parsed = detailErrorBodySchema.safeParse(body);
    const detail = parsed.success ? parsed.data.detail : undefined;
    return new GraphitiNotFoundError(
      `Graphiti answered 404 to ${route}${detail === undefined ? '' : `: ${shorten(detail)}`}. The id does not exist (it may have been deleted already); check the id, or treat it as gone.`,
      { ...init, detail },
    );
  }
  if (status === 422) {
    const parsed = validationErrorBodySchema.safeParse(body);
    const detail = parsed.success ? parsed.data.detail : undefined;
    const summary =
      detail === undefined
        ? ''
        : `: ${detail
            .slice(0, 5)
            .map((item) => `${item.loc.join('.')}: ${item.msg}`)
            .join('; ')}`;
    return new GraphitiValidationError(
      `Graphiti refused ${route} with 422${summary}. The server's contract differs from this client's (version mismatch?); error.detail lists what it rejected.`,
      { ...init, detail },
    );
  }
  if (status === 429) {
    const wait = init.retryAfterMs === undefined ? '' : ` and asks to wait ${Math.ceil(init.retryAfterMs / 1000)} s`;
    return new GraphitiRateLimitError(
      `Graphiti (or a proxy in front of it) is rate-limiting ${route} (429)${wait}. Send less often or retry later.`,
      init,
    );
  }
  if (status >= 500) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new GraphitiServerError(
      `Graphiti failed on ${route} with ${status}${text === '' ? '' : `: ${shorten(text)}`}. Retry later; if it keeps failing, read the server's log (a bad group_id or a model error are common causes).`,
      init,
    );
  }
  const hint =
    status === 401 || status === 403
      ? ' Check apiKey and apiKeyHeader: a proxy in front of Graphiti refused the credentials.'
      : ' Check baseUrl and the request.';
  return new GraphitiApiError(`Graphiti answered ${status} to ${route}.${hint}`, init);
}
