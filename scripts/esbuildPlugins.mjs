// esbuild plugins shared by the build (scripts/build.mjs) and the bundle budget test.
import path from "node:path";

// zod ships error messages in ~50 languages and re-exports them all; Fathom's messages are
// English, so bundles get only the English locale (about 70 KB less gzipped per bundle).
export const zodEnglishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`)
        ? { path: path.join(path.dirname(args.importer), "../locales/index.js"), namespace: "zod-locales" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), "en.js"))};`,
      resolveDir: path.dirname(args.path),
      loader: "js",
    }));
  },
};

// Libraries the extension loads on first use (src/core/vendor/libraries.ts): each is a bundle of
// its own in dist/vendor/, and the extension's bundle requires that file instead of holding it, so
// activation loads none of them. The core and CLI bundles hold them as usual.
export const LAZY_LIBRARIES = [
  "openaiLib",
  "anthropicLib",
  "sandboxLib",
  "shellLib",
  "mcpLib",
  "yamlLib",
  "webPageLib",
];
export const lazyLibraries = {
  name: "lazy-libraries",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^\\./(${LAZY_LIBRARIES.join("|")})$`) }, (args) =>
      args.kind === "require-call" && args.importer.endsWith(path.join("core", "vendor", "libraries.ts"))
        ? { path: `./vendor/${args.path.slice(2)}.js`, external: true }
        : undefined,
    );
  },
};
