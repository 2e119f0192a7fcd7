// An esbuild plugin shared by the bundles that ship (the extension's runtime, the agent hook runner).

/**
 * graphiti-client takes one thing from undici at runtime: `Agent` (the rest are types). undici's
 * index also loads fetch, WebSocket, EventSource, caching and mocks: about 230 KiB of the hook
 * core that every cold hook and every activation with memory on evaluated for nothing. In our own
 * bundles, `undici` resolves to `{ Agent }` from undici's agent module, with the request methods
 * undici's index adds to every dispatcher. The published graphiti-client keeps importing undici's
 * index (its public API); only our lockfile-pinned bundles rely on the inner paths, and the build
 * fails if undici moves them or anything else in the bundle imports undici.
 */
export const undiciAgentOnly = {
  name: 'undici-agent-only',
  setup(build) {
    build.onResolve({ filter: /^undici$/ }, (args) => {
      if (!/[\\/]graphiti-client[\\/]src[\\/]/.test(args.importer)) {
        return { errors: [{ text: `undici-agent-only: ${args.importer} imports undici; only graphiti-client's Agent is mapped. Map what it needs or drop the plugin.` }] };
      }
      return { path: 'undici', namespace: 'undici-agent-only', pluginData: { resolveDir: args.resolveDir } };
    });
    build.onLoad({ filter: /.*/, namespace: 'undici-agent-only' }, async (args) => {
      const resolved = [];
      for (const module of ['undici/lib/dispatcher/agent.js', 'undici/lib/dispatcher/dispatcher.js', 'undici/lib/api/index.js']) {
        const found = await build.resolve(module, { resolveDir: args.pluginData.resolveDir, kind: 'require-call' });
        if (found.errors.length > 0) {
          return { errors: [{ text: `undici-agent-only: undici has no ${module} (${found.errors[0].text}); update the plugin for this undici version.` }] };
        }
        resolved.push(JSON.stringify(found.path));
      }
      const [agent, dispatcher, api] = resolved;
      // As undici's index does: the request/stream/pipeline methods on every dispatcher.
      return {
        contents: `Object.assign(require(${dispatcher}).prototype, require(${api}));\nmodule.exports = { Agent: require(${agent}) };`,
        resolveDir: args.pluginData.resolveDir,
        loader: 'js',
      };
    });
  },
};
