export { GraphitiClient } from './client.js';
export {
  DEFAULT_API_KEY_HEADER,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type GraphitiClientOptions,
  type RequestOptions,
} from './options.js';
export {
  GraphitiAbortError,
  GraphitiApiError,
  GraphitiConnectionError,
  GraphitiError,
  GraphitiNotFoundError,
  GraphitiRateLimitError,
  GraphitiResponseValidationError,
  GraphitiServerError,
  GraphitiTimeoutError,
  GraphitiUsageError,
  GraphitiValidationError,
  isGraphitiError,
  isRetryableStatus,
  type GraphitiErrorKind,
  type RequestDescription,
} from './errors.js';
export * from './schemas.js';
