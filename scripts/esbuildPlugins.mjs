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

// Libraries the extension and the CLI load on first use (src/core/vendor/libraries.ts): each is a
// bundle of its own in dist/vendor/, and those bundles require that file instead of holding it, so
// activation (or `fathom acp` idling in an editor) loads none of them. The core bundle holds them as usual.
export const LAZY_LIBRARIES = [
  "openaiLib",
  "anthropicLib",
  "sandboxLib",
  "shellLib",
  "mcpLib",
  "yamlLib",
  "webPageLib",
  "lspLib",
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

// Code the lazy bundles would hold but Fathom never runs (about 200 KB of the vsix, compressed).
// Each is replaced by a stand-in that says so if it is ever reached:
// - node-forge: the sandbox runtime's TLS termination (`network.tlsTerminate`), which Fathom never configures;
// - @mixmark-io/domino: turndown's HTML parser for strings; Fathom hands turndown a linkedom node (core/web/pageText.ts);
// - cssomnom: linkedom's parser for `<style>`'s `sheet`; Fathom removes `<style>` before reading a page.
export const NEVER_LOADED = {
  "node-forge": `const unavailable = new Proxy(function () {}, {
  get: (_, key) => (typeof key === "symbol" ? undefined : unavailable),
  apply() { throw new Error("node-forge is not in Fathom's build: the sandbox's TLS termination is not used"); },
  construct() { throw new Error("node-forge is not in Fathom's build: the sandbox's TLS termination is not used"); },
});
export default unavailable;`,
  "@mixmark-io/domino": `module.exports = { createDocument() { throw new Error("domino is not in Fathom's build: give turndown a DOM node"); } };`,
  "cssomnom/parse": `export function parse() { return { cssRules: [] }; }`,
};
export const neverLoaded = {
  name: "never-loaded",
  setup(build) {
    const names = Object.keys(NEVER_LOADED).map((n) => n.replace(/[/.-]/g, "\\$&"));
    build.onResolve({ filter: new RegExp(`^(${names.join("|")})$`) }, (args) => ({
      path: args.path,
      namespace: "never-loaded",
    }));
    build.onLoad({ filter: /.*/, namespace: "never-loaded" }, (args) => ({
      contents: NEVER_LOADED[args.path],
      loader: "js",
    }));
  },
};
