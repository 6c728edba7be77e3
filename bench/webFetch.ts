// web_fetch (issue 32): a 5 MB page served on 127.0.0.1, from its last byte to the capped text
// the model gets, and the library choice measured against one alternative (jsdom as the DOM
// instead of linkedom, the same Readability and turndown). `npm run bench -- web`
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readability } from "@mozilla/readability";
import { JSDOM } from "jsdom";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { newRunState } from "../src/core/run/runState";
import { webFetchMiddleware } from "../src/core/middleware/webFetch";
import type { Tool } from "../src/core/tools/tool";

function bigPage(bytes: number): string {
  const para = (i: number) =>
    `<p>Paragraph ${i}: ${"lorem ipsum dolor sit amet ".repeat(8)}<a href="/p/${i}">link ${i}</a></p>\n`;
  let html =
    "<!doctype html><html><head><title>Big</title></head><body><nav><a href='/'>Home</a></nav><article><h1>Big page</h1>";
  for (let i = 0; html.length < bytes; i++) html += para(i);
  return `${html}</article><footer>end</footer></body></html>`;
}

function convert(document: Document): number {
  const article = new Readability(document, { charThreshold: 200 }).parse();
  return new TurndownService().turndown(article?.content ?? "").length;
}

export async function runWebFetchBench(): Promise<void> {
  console.log("\n## web_fetch (issue 32)");
  const page = bigPage(5 * 1024 * 1024);
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(page);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/big`;
  try {
    const times: number[] = [];
    for (let run = 0; run < 4; run++) {
      // A new tool each time: its page cache must not answer.
      const tool = webFetchMiddleware({ allowDomains: ["127.0.0.1"] }).tools![0] as Tool;
      const started = performance.now();
      const result = await tool.run(
        { url } as never,
        { signal: new AbortController().signal, toolCallId: "b", run: { state: newRunState() } } as never,
      );
      times.push(performance.now() - started);
      if (run === 0 && !/only its first 1 MB were read/.test(result.content))
        throw new Error(`unexpected result: ${result.content.slice(0, 300)}`);
    }
    const [first, ...rest] = times;
    rest.sort((a, b) => a - b);
    console.log(
      `  5 MB page on 127.0.0.1 → capped markdown (read 1 MB, 200,000 characters converted, 20,000 returned): ${rest[1]!.toFixed(0)} ms median of 3 (first call ${first!.toFixed(0)} ms, loading the libraries); transfer on loopback included`,
    );
    const html = page.slice(0, 1024 * 1024);
    for (const [name, parse] of [
      ["linkedom (chosen)", (h: string) => parseHTML(h).document as unknown as Document],
      ["jsdom (alternative)", (h: string) => new JSDOM(h).window.document],
    ] as const) {
      const started = performance.now();
      const document = parse(html);
      const parsed = performance.now() - started;
      const chars = convert(document);
      console.log(
        `  1 MB of HTML, whole (no cut) with ${name}: parse ${parsed.toFixed(0)} ms, Readability + turndown ${(performance.now() - started - parsed).toFixed(0)} ms (${chars.toLocaleString("en")} characters of markdown)`,
      );
    }
  } finally {
    server.close();
  }
}

if (/bench[\\/]webFetch\.[cm]?[jt]s$/.test(process.argv[1] ?? "")) {
  runWebFetchBench().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
