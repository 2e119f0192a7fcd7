// An esbuild plugin shared by the bundles that ship (the extension's runtime, the agent hook runner).
import path from 'node:path';

/**
 * zod's entries re-export every locale (`z.locales`); a dependency that passes its `z`
 * namespace around keeps them all in the bundle (about 260 KiB) although only English messages
 * are used. Resolve zod's locale index to English alone.
 */
export const englishZodLocalesOnly = {
  name: 'english-zod-locales-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer)
        ? { path: path.join(path.dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-english-locales' }
        : undefined,
    );
    // `z.locales` keeps its shape: `z.locales.en()` still works.
    build.onLoad({ filter: /.*/, namespace: 'zod-english-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};
