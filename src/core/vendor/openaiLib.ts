// The `openai` client, in a bundle of its own for the extension (see ./libraries.ts).
export { default as OpenAI } from "openai";
