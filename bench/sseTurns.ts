// An OpenAI-wire answer streamed as a hosted model streams it: `chars` characters every
// `everyMs` (the figures issue 35 was measured with: 24 every 15 ms). The last text goes in the
// last chunk, with the finish reason and [DONE], so "the last chunk" is when the text is whole.
import type { RawTurn } from "../test/support/scriptedModelServer";

export function streamedAnswer(text: string, o: { chars?: number; everyMs?: number } = {}): RawTurn {
  const chars = o.chars ?? 24;
  const everyMs = o.everyMs ?? 15;
  const id = `chatcmpl-bench-${Math.random().toString(36).slice(2, 8)}`;
  const event = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model: "gpt-4.1", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += chars) pieces.push(text.slice(i, i + chars));
  const chunks = pieces.map((piece, i) => ({
    at: i * everyMs,
    text:
      (i === 0 ? event({ role: "assistant", content: "" }, null) : "") +
      event({ content: piece }, null) +
      (i === pieces.length - 1 ? `${event({}, "stop")}data: [DONE]\n\n` : ""),
  }));
  return { raw: { status: 200, headers: { "content-type": "text/event-stream" }, chunks } };
}

/** A markdown answer of about `n` characters: paragraphs, a list and a code block, as models write. */
export function markdownAnswer(tag: string, n = 1500): string {
  const parts = [`**${tag}.** Here is what the project does and where to start.`];
  let i = 0;
  while (parts.join("\n\n").length < n) {
    i++;
    parts.push(
      i % 3 === 0
        ? '```ts\nexport function slugify(title: string): string {\n  return title.toLowerCase().replace(/[^a-z0-9]+/g, "-");\n}\n```'
        : i % 3 === 1
          ? `- The \`src/\` folder holds the code (${i}).\n- Tests are in \`test/\`, run with \`npm test\`.\n- The README explains the options.`
          : `Paragraph ${i}: the function lower-cases the title, joins words with dashes and trims them at both ends, so "Hello, World!" becomes "hello-world".`,
    );
  }
  return parts.join("\n\n");
}
