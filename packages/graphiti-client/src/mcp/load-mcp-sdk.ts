// Loads mcp-sdk.ts (the MCP SDK) on first need: the only way the rest of the package reaches it.
// Bundlers keep the `import()` lazy (esbuild's CommonJS output evaluates the module on first call).
import type * as McpSdkModule from './mcp-sdk.js';

export type McpSdk = typeof McpSdkModule;

/** The SDK could not be loaded: the installation is incomplete (a broken invariant, reported as a connection failure). */
export class McpSdkLoadError extends Error {
  constructor(cause: unknown) {
    super(`the MCP SDK (@modelcontextprotocol/sdk) could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'McpSdkLoadError';
  }
}

let loaded: McpSdk | undefined;
let loading: Promise<McpSdk> | undefined;

/** The SDK, loading it now if need be. A failed load is not remembered: the next call tries again. */
export function loadMcpSdk(): Promise<McpSdk> {
  if (loaded !== undefined) return Promise.resolve(loaded);
  loading ??= import('./mcp-sdk.js').then(
    (sdk) => {
      loaded = sdk;
      return sdk;
    },
    (error: unknown) => {
      loading = undefined;
      throw new McpSdkLoadError(error);
    },
  );
  return loading;
}

/** The SDK if it has been loaded: an error can only be the SDK's when it has. */
export function loadedMcpSdk(): McpSdk | undefined {
  return loaded;
}
