// The demo as the extension plays it ("Fathom: Try the Demo Task"): the recording read
// compressed, as scripts/build.mjs ships it, and the demo player as the model's `fetch` (no
// server, no network) under the real agent and OpenAI-compatible adapter, on a copy of the
// sample project. The scripted-server path (`npm run demo`) is demoRecording.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { createModel } from "../../../src/core/model/createModel";
import { CassetteError, formatCassette, readCassette, type Cassette } from "../../../src/core/replay/cassette";
import { AFTER_END_SESSION, createDemoPlayer } from "../../../src/core/replay/demoPlayer";
import { collect, ofType } from "../../support/agentTestKit";
import { APPROVE_ALL, demoCassetteFile } from "../../fixtures/demo/recording";
import { loadDemoScript } from "../../fixtures/demo/script";

// The demo runs the sample project's own `node --test`: not as a child of this test runner.
delete process.env.NODE_TEST_CONTEXT;

const sample = path.resolve(import.meta.dirname, "../../fixtures/sample-workspace");
const script = loadDemoScript();
const scratch = mkdtempSync(path.join(tmpdir(), "fathom-demo-player-"));

/** The recording compressed as the extension ships it (and as gzip, which reads the same way). */
function compressed(kind: "br" | "gz"): string {
  const file = path.join(scratch, `cassette.jsonl.${kind}`);
  const bytes = readFileSync(demoCassetteFile);
  writeFileSync(file, kind === "br" ? brotliCompressSync(bytes) : gzipSync(bytes));
  return file;
}

function demoAgent(cassette: Cassette) {
  const dir = mkdtempSync(path.join(scratch, "workspace-"));
  cpSync(sample, dir, { recursive: true });
  const player = createDemoPlayer(cassette, { workspaceRoot: dir });
  const agent = createAgent({
    // The extension's model: no base URL it could reach, the player answers every request.
    model: createModel({
      provider: "openai-compatible",
      model: cassette.header.model,
      baseUrl: "http://recorded-demo.invalid/v1",
      fetch: player.fetch,
      retryBaseDelayMs: 1,
    }),
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: new ChildProcessExecutor(),
    approvalGate: { request: async () => ({ type: "approve" }) },
  });
  return { agent, player, dir };
}

test("a compressed recording (brotli as shipped, or gzip) reads as the plain one", () => {
  const plain = readCassette(demoCassetteFile);
  for (const kind of ["br", "gz"] as const) {
    const read = readCassette(compressed(kind));
    assert.deepEqual(read.header, plain.header);
    assert.deepEqual(read.exchanges, plain.exchanges);
  }
  const broken = path.join(scratch, "broken.jsonl.br");
  writeFileSync(broken, "not brotli");
  assert.throws(
    () => readCassette(broken),
    (e: unknown) => e instanceof CassetteError && e.message.includes(broken),
  );
});

test("the demo player as the model's fetch plays the task through, then answers follow-ups with the closing note", async () => {
  const cassette = readCassette(compressed("br"));
  const { agent, player, dir } = demoAgent(cassette);
  const first = await collect(agent, "please fix the slugify test");
  // The first request's answer: the plan as todos, then the search.
  const todos = ofType(first.events, "todos_changed")[0];
  assert.equal(todos?.todos[0]?.content, "Find the failing slugify test");
  assert.equal(first.done.reason, "completed", first.done.message);
  assert.equal(first.done.finalText, script.steps.at(-1)!.text);
  assert.match(readFileSync(path.join(dir, "src/slugify.js"), "utf8"), /\.replace\(\/\^-\|-\$\/g, ''\);/);
  assert.equal(player.requests, cassette.exchanges.filter((x) => x.session === APPROVE_ALL).length);
  assert.equal(player.divergence, undefined);

  // The first follow-up is recorded; the next leaves the recording and gets the same note, not an error.
  const second = await collect(agent, "what else?", { state: first.done.state });
  assert.equal(second.done.finalText, script.afterEnd.text);
  assert.equal(player.divergence, undefined);
  const third = await collect(agent, "and then?", { state: second.done.state });
  assert.equal(third.done.reason, "completed", third.done.message);
  assert.equal(third.done.finalText, script.afterEnd.text);
  assert.ok(player.divergence);
});

test("a recording without the closing note is refused with what to do", () => {
  const cassette = readCassette(demoCassetteFile);
  const without = path.join(scratch, "without-note.jsonl");
  writeFileSync(
    without,
    formatCassette({
      header: cassette.header,
      exchanges: cassette.exchanges.filter((x) => x.session !== AFTER_END_SESSION),
    }),
  );
  assert.throws(
    () => createDemoPlayer(readCassette(without)),
    (e: unknown) => e instanceof CassetteError && /no "after-end" exchange.*record it again/.test(e.message),
  );
});
