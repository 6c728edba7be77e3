// The OS sandbox runtime, in a bundle of its own for the extension (see ./libraries.ts).
export { SandboxManager } from "@anthropic-ai/sandbox-runtime";
