export { GraphitiClient } from './client.js';
export { GraphitiMcpClient, mcpServerRoot } from './mcp/mcp-client.js';
export {
  AutoGraphitiClient,
  createGraphitiClient,
  isMcpEndpointUrl,
  probeGraphitiServer,
  type AutoFaceOptions,
  type CreateGraphitiClientOptions,
} from './create-client.js';
export {
  GRAPHITI_SERVER_CHOICES,
  type GraphitiApi,
  type GraphitiServerChoice,
  type GraphitiServerKind,
  type ServerFace,
} from './graphiti-api.js';
export {
  DEFAULT_API_KEY_HEADER,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type AddMessagesOptions,
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
  GraphitiResponseTooLargeError,
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
export * from './structure.js';
