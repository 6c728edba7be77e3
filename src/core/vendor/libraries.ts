/* eslint-disable @typescript-eslint/no-require-imports -- these libraries are required on first use, on purpose (below) */
/**
 * Libraries Fathom loads the first time it needs them, not when it starts. Together they are
 * most of its code (the model SDKs, the OS sandbox runtime, the MCP client, the bash parser, the YAML parser, the language server protocol), and
 * loading them at activation cost every window their parse and memory, used or not. The
 * build (scripts/build.mjs) ships each `*Lib.ts` here as a bundle of its own in dist/vendor/ and
 * turns these `require`s in the extension's and the CLI's bundles into loads of those files (a
 * `fathom acp` process idles in an editor); elsewhere (tests, dist/core.js) they are ordinary requires.
 *
 * Only third-party code lives in those bundles: Fathom's own classes stay in the one bundle, so
 * `instanceof` and module state are never split in two.
 */

import type * as OpenaiLib from "./openaiLib";
import type * as AnthropicLib from "./anthropicLib";
import type * as SandboxLib from "./sandboxLib";
import type * as ShellLib from "./shellLib";
import type * as McpLib from "./mcpLib";
import type * as YamlLib from "./yamlLib";
import type * as WebPageLib from "./webPageLib";
import type * as LspLib from "./lspLib";

function once<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

export const openaiLib = once(() => require("./openaiLib") as typeof OpenaiLib);
export const anthropicLib = once(() => require("./anthropicLib") as typeof AnthropicLib);
export const sandboxLib = once(() => require("./sandboxLib") as typeof SandboxLib);
export const shellLib = once(() => require("./shellLib") as typeof ShellLib);
export const mcpLib = once(() => require("./mcpLib") as typeof McpLib);
export const yamlLib = once(() => require("./yamlLib") as typeof YamlLib);
export const webPageLib = once(() => require("./webPageLib") as typeof WebPageLib);
export const lspLib = once(() => require("./lspLib") as typeof LspLib);

/** The libraries a model request needs, loaded ahead (off the person's path) so a first request does not wait for them. */
export function preloadModelLibraries(provider: string): void {
  if (provider === "anthropic") anthropicLib();
  else if (provider === "openai" || provider === "openai-compatible") openaiLib();
}
