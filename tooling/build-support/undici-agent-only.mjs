// An esbuild plugin shared by the bundles that ship (the extension's runtime, the agent hook runner).
import path from 'node:path';

/** undici's HTTP/1 client module, the one importer of its HTTP/2 client. */
const UNDICI_H1_CLIENT = /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/;

/**
 * graphiti-client takes one thing from undici at runtime: `Agent` (the rest are types). undici's
 * index also loads fetch, WebSocket, EventSource, caching and mocks: about 230 KiB of the hook
 * core that every cold hook and every activation with memory on evaluated for nothing. In our own
 * bundles, `undici` resolves to `{ Agent }` from undici's agent module, with the request methods
 * undici's index adds to every dispatcher. The published graphiti-client keeps importing undici's
 * index (its public API); only our lockfile-pinned bundles rely on the inner paths, and the build
 * fails if undici moves them or anything else in the bundle imports undici.
 *
 * undici's HTTP/1 client also requires its HTTP/2 client (lib/dispatcher/client-h2.js) at load, and
 * that requires node:http2: about 7 ms of every cold hook. undici speaks h2 only when a dispatcher
 * is made with `allowH2` and the server picks h2 in TLS ALPN; graphiti-client never sets `allowH2`,
 * so our bundles get a stand-in that loads the real module on the first `connectH2` call (esbuild
 * keeps a bundled CommonJS module unevaluated until its first `require`). The build fails if undici
 * moves that file or its client stops importing it by that name.
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
    let h2Deferred = false;
    let h1Client;
    build.onStart(() => {
      h2Deferred = false;
      h1Client = undefined;
    });
    build.onResolve({ filter: /^\.\/client-h2\.js$/ }, async (args) => {
      if (!UNDICI_H1_CLIENT.test(args.importer)) return undefined;
      const found = await build.resolve(path.join(args.resolveDir, 'client-h2.js'), { resolveDir: args.resolveDir, kind: 'require-call' });
      if (found.errors.length > 0) {
        return { errors: [{ text: `undici-agent-only: undici has no lib/dispatcher/client-h2.js (${found.errors[0].text}); update the plugin for this undici version.` }] };
      }
      h2Deferred = true;
      return { path: 'undici/lib/dispatcher/client-h2.js', namespace: 'undici-h2-on-first-use', pluginData: { real: found.path } };
    });
    build.onLoad({ filter: /.*/, namespace: 'undici-h2-on-first-use' }, (args) => ({
      // connectH2(client, socket) is all client-h2.js exports.
      contents: `module.exports = function connectH2(client, socket) { return require(${JSON.stringify(args.pluginData.real)})(client, socket); };`,
      resolveDir: path.dirname(args.pluginData.real),
      loader: 'js',
    }));
    // Seen, and left to esbuild (undefined): the check below needs to know undici's client was bundled.
    build.onLoad({ filter: UNDICI_H1_CLIENT }, (args) => {
      h1Client = args.path;
      return undefined;
    });
    build.onEnd((result) => {
      // Thrown: an error only added to result.errors here would not fail the build.
      if (h1Client !== undefined && !h2Deferred && result.errors.length === 0) {
        throw new Error(`undici-agent-only: ${h1Client} no longer requires './client-h2.js', so node:http2 may load with every client again; update the plugin for this undici version.`);
      }
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
