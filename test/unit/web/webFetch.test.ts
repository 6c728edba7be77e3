import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { gzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import { createAgent } from "../../../src/core/agent/createAgent";
import type { ApprovalRequest } from "../../../src/core/approval";
import { MAX_PAGE_BYTES, webFetchMiddleware, type WebFetchOptions } from "../../../src/core/middleware/webFetch";
import { decodeBody, htmlToMarkdown } from "../../../src/core/web/pageText";
import type { Tool, ToolResult } from "../../../src/core/tools/tool";
import { newRunState } from "../../../src/core/run/runState";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

const ARTICLE = `<!doctype html><html><head><title>Fathom docs</title><script>alert(1)</script></head><body>
<nav><a href="/home">Home</a> | <a href="/about">About</a></nav>
<article><h1>Getting started</h1>
<p>Fathom is a coding agent. Read the <a href="/guide/setup">setup guide</a> before you begin; it explains how the agent reads files, asks before it writes, and runs commands in the sandbox.</p>
<p>Each task keeps its own conversation and checkpoints, so you can undo what it changed. This paragraph is long enough for Readability to treat the article as the page's main content.</p>
<table><thead><tr><th>Setting</th><th>Default</th></tr></thead><tbody><tr><td>maxSteps</td><td>100</td></tr></tbody></table>
</article><footer>© someone</footer></body></html>`;

function bigHtml(bytes: number): string {
  const para = (i: number) =>
    `<p>Paragraph ${i}: ${"lorem ipsum dolor sit amet ".repeat(8)}<a href="/p/${i}">link ${i}</a></p>\n`;
  let html = "<html><head><title>Big</title></head><body><article><h1>Big page</h1>";
  for (let i = 0; html.length < bytes; i++) html += para(i);
  return `${html}</article></body></html>`;
}

let server: Server;
let base: string;
let port: number;
before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    switch (url.pathname) {
      case "/article":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(ARTICLE);
      case "/gzip":
        res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
        return res.end(gzipSync("compressed text"));
      case "/latin1":
        res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" });
        return res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      case "/invalid":
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
        return res.end(Buffer.from([0x6f, 0x6b, 0x20, 0xff, 0xfe, 0x20, 0xc3]));
      case "/json":
        res.writeHead(200, { "content-type": "application/json" });
        return res.end('{"a":1}');
      case "/loop":
        res.writeHead(302, { location: "/loop" });
        return res.end();
      case "/to-localhost":
        res.writeHead(301, { location: `http://localhost:${port}/article` });
        return res.end();
      case "/to-article":
        res.writeHead(302, { location: "/article" });
        return res.end();
      case "/forever": {
        res.writeHead(200, { "content-type": "text/plain" });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const write = () => {
          while (res.write(chunk)) if (res.destroyed) return;
          res.once("drain", write);
        };
        res.on("close", () => res.removeAllListeners("drain"));
        return write();
      }
      case "/silent":
        return; // never answers
      case "/big":
        res.writeHead(200, { "content-type": "text/html" });
        return res.end(bigHtml(5 * 1024 * 1024));
      default:
        res.writeHead(404, { "content-type": "text/plain" });
        return res.end("not here");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const LOOPBACK = ["127.0.0.1"];

async function fetchWith(
  options: WebFetchOptions,
  args: Record<string, unknown>,
  state = newRunState(),
): Promise<ToolResult> {
  const tool = webFetchMiddleware(options).tools![0] as Tool;
  const run = { state } as never;
  return tool.run(args as never, { signal: new AbortController().signal, toolCallId: "c1", run } as never);
}

test("an HTML page on 127.0.0.1 (named by the person) becomes markdown of its article; the result says the final URL", async () => {
  const result = await fetchWith({ allowDomains: LOOPBACK }, { url: `${base}/to-article` });
  assert.equal(result.isError, undefined, result.content);
  assert.match(result.content, new RegExp(`^URL: ${base}/article \\(redirected from ${base}/to-article\\)`));
  assert.match(result.content, /Title: Fathom docs/);
  assert.match(result.content, /# Getting started/);
  assert.match(result.content, new RegExp(`\\[setup guide\\]\\(${base}/guide/setup\\)`));
  assert.match(result.content, /\| Setting \| Default \|/);
  assert.doesNotMatch(result.content, /alert\(1\)/);
  assert.match(result.content, /a stranger's/);
});

test("loopback is refused unless the person named the host itself: directly, through a redirect, through a DNS name, or a wildcard", async () => {
  const refused = await fetchWith({}, { url: `${base}/article` });
  assert.equal(refused.isError, true);
  assert.match(
    refused.content,
    /Refused: 127\.0\.0\.1 is a loopback, private or link-local address.*--allow-domain 127\.0\.0\.1/,
  );
  // Redirected from an allowed 127.0.0.1 to localhost (another name, resolving to loopback).
  const viaRedirect = await fetchWith({ allowDomains: LOOPBACK }, { url: `${base}/to-localhost` });
  assert.equal(viaRedirect.isError, true);
  assert.match(
    viaRedirect.content,
    /redirects to http:\/\/localhost:\d+\/article, on localhost, which this task has not been allowed/,
  );
  const allowedButPrivate = await fetchWith(
    { allowDomains: ["127.0.0.1", "*.localhost"] },
    { url: `${base}/to-localhost` },
    { ...newRunState(), webDomains: ["localhost"] },
  );
  assert.match(allowedButPrivate.content, /Refused: localhost resolves to (127\.0\.0\.1|::1)/);
  const resolve = async () => [{ address: "127.0.0.1", family: 4 }];
  const viaDns = await fetchWith(
    { resolve, allowDomains: ["*.example.test"] },
    { url: `http://docs.example.test:${port}/article` },
  );
  assert.match(viaDns.content, /Refused: docs\.example\.test resolves to 127\.0\.0\.1/);
  const named = await fetchWith(
    { resolve, allowDomains: ["docs.example.test"] },
    { url: `http://docs.example.test:${port}/article` },
  );
  assert.equal(named.isError, undefined, named.content);
  const metadata = await fetchWith({}, { url: "http://169.254.169.254/latest/meta-data/" });
  assert.match(metadata.content, /Refused: 169\.254\.169\.254 is a loopback, private or link-local address/);
});

test("credentials in the URL, file: and data: URLs are refused", async () => {
  assert.match(
    (await fetchWith({ allowDomains: LOOPBACK }, { url: `http://user:pw@127.0.0.1:${port}/article` })).content,
    /carries credentials/,
  );
  assert.match(
    (await fetchWith({}, { url: "file:///etc/passwd" })).content,
    /Only http and https pages are fetched; file: URLs are refused/,
  );
  assert.match((await fetchWith({}, { url: "data:text/plain,hi" })).content, /data: URLs are refused/);
});

test("a redirect loop stops after 5 redirects, a silent server at the timeout, an endless stream at the cap", async () => {
  const loop = await fetchWith({ allowDomains: LOOPBACK }, { url: `${base}/loop` });
  assert.match(loop.content, /Stopped after 5 redirects \(a redirect loop\?\)/);
  const silent = await fetchWith({ allowDomains: LOOPBACK, timeoutMs: 300 }, { url: `${base}/silent` });
  assert.match(silent.content, /127\.0\.0\.1:\d+\/silent did not answer within 0 s\. Try again later/);
  const started = Date.now();
  const endless = await fetchWith(
    { allowDomains: LOOPBACK, maxBytes: 1024 * 1024 },
    { url: `${base}/forever`, max_chars: 1000 },
  );
  assert.ok(Date.now() - started < 5000);
  assert.match(endless.content, /only its first 1 MB were read/);
  assert.match(endless.content, /Characters 0-1000 of 1048576\. Read on with web_fetch\(url, offset=1000\)/);
});

test("charsets, invalid UTF-8, gzip and JSON are read as text; paging reads on from an offset", async () => {
  assert.match((await fetchWith({ allowDomains: LOOPBACK }, { url: `${base}/latin1` })).content, /café$/);
  const invalid = await fetchWith({ allowDomains: LOOPBACK }, { url: `${base}/invalid` });
  assert.match(invalid.content, /3 byte sequences were not valid utf-8/);
  assert.match((await fetchWith({ allowDomains: LOOPBACK }, { url: `${base}/gzip` })).content, /compressed text$/);
  assert.match((await fetchWith({ allowDomains: LOOPBACK }, { url: `${base}/json` })).content, /\{"a":1\}$/);
  const middle = await fetchWith({ allowDomains: LOOPBACK }, { url: `${base}/article`, offset: 10, max_chars: 1000 });
  assert.doesNotMatch(middle.content, /# Getting started/);
  assert.match((await fetchWith({ allowDomains: LOOPBACK }, { url: `${base}/nothing` })).content, /Status: 404/);
});

test("a 5 MB page: cut at the byte cap and turned into capped text", async () => {
  const result = await fetchWith({ allowDomains: LOOPBACK }, { url: `${base}/big` });
  assert.match(result.content, /only its first 1 MB were read/);
  assert.match(result.content, /Only the first 200,000 characters of the page's text were read/);
  assert.match(result.content, /# Big page/);
  assert.ok(result.content.length < 22_000);
  // Decoding and conversion of the capped bytes (their time is in `npm run bench -- web`).
  const bytes = Buffer.from(bigHtml(5 * 1024 * 1024)).subarray(0, MAX_PAGE_BYTES);
  const { text } = decodeBody(bytes, "text/html; charset=utf-8");
  const { markdown, cut } = htmlToMarkdown(text, base);
  assert.equal(cut, true);
  assert.ok(markdown.length > 100_000);
});

test("through the agent: a new domain is asked once per task (and never allowed by policy); a listed one is not asked", async () => {
  const asked: ApprovalRequest[] = [];
  const gate = { request: async (r: ApprovalRequest) => (asked.push(r), { type: "approve" as const }) };
  const url = `${base}/article`;
  const model = new FakeModel([
    { toolCalls: [{ name: "web_fetch", arguments: { url } }] },
    { toolCalls: [{ name: "web_fetch", arguments: { url: `${base}/json` } }] },
    { text: "read" },
  ]);
  const { done } = await collect(
    createAgent({
      workspaceRoot: "/tmp",
      rules: false,
      generalPurposeSubagent: false,
      model,
      approvalGate: gate,
      approvalPolicy: { read: "auto" },
      webFetch: { allowDomains: LOOPBACK },
    }),
    "read the docs",
  );
  assert.equal(asked.length, 0, "a listed domain is not asked");
  assert.deepEqual(done.state.webDomains, ["127.0.0.1"]);
  const resolve = async () => [{ address: "93.184.215.14", family: 4 }];
  const tool = webFetchMiddleware({ resolve }).tools![0]!;
  const state = newRunState();
  assert.match(
    tool.askWhy!({ url: "https://docs.example.com/a" } as never, state)!,
    /from docs\.example\.com, a domain it has not read from in this task/,
  );
  state.webDomains = ["docs.example.com"];
  assert.equal(tool.askWhy!({ url: "https://docs.example.com/b" } as never, state), undefined);
  const refusedModel = new FakeModel([
    { toolCalls: [{ name: "web_fetch", arguments: { url: "https://docs.example.com/a" } }] },
    { text: "ok" },
  ]);
  const rejecting = { request: async (r: ApprovalRequest) => (asked.push(r), { type: "reject" as const }) };
  await collect(
    createAgent({
      workspaceRoot: "/tmp",
      rules: false,
      generalPurposeSubagent: false,
      model: refusedModel,
      approvalGate: rejecting,
      approvalPolicy: { read: "auto", tools: { web_fetch: "auto" } },
    }),
    "go",
  );
  assert.equal(asked.length, 1, "asked although the policy auto-approves it");
  assert.equal(asked[0]!.mustAsk, true);
});
