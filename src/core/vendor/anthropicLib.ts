// The `@anthropic-ai/sdk` client, in a bundle of its own for the extension (see ./libraries.ts).
export { default as Anthropic } from "@anthropic-ai/sdk";
