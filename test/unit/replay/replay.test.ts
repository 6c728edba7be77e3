// Record and replay at the model seam (src/core/replay): the real agent, the real adapters and
// the real `openai` / `@anthropic-ai/sdk` clients, recording from the scripted model server and
// replaying with no server at all.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { createModel, type Provider } from "../../../src/core/model/createModel";
import {
  parseCassette,
  readCassette,
  replaceInEvents,
  WORKSPACE_PLACEHOLDER,
  type RecordedEvent,
} from "../../../src/core/replay/cassette";
import { CassettePlayer } from "../../../src/core/replay/cassettePlayer";
import { CassetteRecorder } from "../../../src/core/replay/cassetteRecorder";
import { conversationOf } from "../../../src/core/replay/conversation";
import { firstDifference, lineDiff } from "../../../src/core/replay/divergence";
import { REPLAY_BASE_URL } from "../../../src/cli/replayOptions";
import {
  startScriptedModelServer,
  faults,
  type ScriptedModelServer,
  type ScriptedTurn,
} from "../../support/scriptedModelServer";
import { collect, ofType } from "../../support/agentTestKit";

const KEY = "sk-replay-SECRET-0123456789abcdef";
const servers: ScriptedModelServer[] = [];
const dirs: string[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workspace(text = "hello\n"): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-replay-"));
  dirs.push(dir);
  writeFileSync(path.join(dir, "a.txt"), text);
  return dir;
}

function agentFor(provider: Provider, root: string, fetch: typeof globalThis.fetch, baseUrl: string) {
  return createAgent({
    model: createModel({ provider, model: "scripted", baseUrl, apiKey: KEY, fetch, retryBaseDelayMs: 1 }),
    workspaceRoot: root,
    backend: new FilesystemBackend({ rootDir: root }),
    executor: new ChildProcessExecutor(),
  });
}

/** Turns that read a file by its absolute path (split across stream fragments), edit it, run a command. */
const turns = (root: string): ScriptedTurn[] => [
  { text: `Reading ${root}/a.txt.`, toolCalls: [{ name: "read_file", arguments: { file_path: `${root}/a.txt` } }] },
  { toolCalls: [{ name: "edit_file", arguments: { file_path: "/a.txt", old_string: "hello", new_string: "bye" } }] },
  { toolCalls: [{ name: "execute", arguments: { command: "cat a.txt" } }] },
  { text: "Done." },
];

async function record(provider: Provider, root: string, script = turns(root)) {
  const server = await startScriptedModelServer(script);
  servers.push(server);
  const file = path.join(root, "..", `${path.basename(root)}.jsonl`);
  dirs.push(file);
  const recorder = new CassetteRecorder({
    file,
    header: { provider, model: "scripted", prompt: "change hello to bye" },
    workspaceRoot: root,
    secrets: [KEY],
  });
  const baseUrl = provider === "anthropic" ? server.baseUrlAnthropic : server.baseUrlOpenAI;
  const run = await collect(agentFor(provider, root, recorder.fetch, baseUrl), "change hello to bye");
  await recorder.flush();
  return { file, run, server, text: readFileSync(file, "utf8") };
}

async function replay(provider: Provider, file: string, root: string, prompt = "change hello to bye") {
  const player = new CassettePlayer(readCassette(file), { workspaceRoot: root });
  const run = await collect(agentFor(provider, root, player.fetch, REPLAY_BASE_URL[provider]), prompt);
  return { player, run };
}

for (const provider of ["openai-compatible", "anthropic"] as const) {
  test(`${provider}: a recorded run replays in another folder with no network: same calls, same result, same tokens`, async () => {
    const first = workspace();
    const recorded = await record(provider, first);
    assert.equal(recorded.run.done.reason, "completed");
    assert.equal(readFileSync(path.join(first, "a.txt"), "utf8"), "bye\n");
    await recorded.server.close();

    // No key, no auth header, no workspace path; the placeholder instead.
    assert.ok(!recorded.text.includes(KEY), "the key is not in the recording");
    assert.ok(!/authorization|x-api-key/i.test(recorded.text), "no auth header is recorded");
    assert.ok(!recorded.text.includes(first), "the workspace path is not in the recording");
    assert.ok(recorded.text.includes(WORKSPACE_PLACEHOLDER));
    const cassette = readCassette(recorded.file);
    assert.equal(cassette.header.provider, provider);
    assert.equal(cassette.exchanges.length, 4);
    assert.ok(
      cassette.exchanges.every((x) => x.response?.status === 200 && (x.response.events?.length ?? 0) > 3),
      "every response is kept as its streamed events",
    );

    const second = workspace();
    const { player, run } = await replay(provider, recorded.file, second);
    assert.equal(player.divergence, undefined, player.divergence?.report);
    assert.equal(run.done.reason, "completed");
    assert.equal(run.done.finalText, "Done.");
    assert.equal(readFileSync(path.join(second, "a.txt"), "utf8"), "bye\n");
    assert.deepEqual(run.done.state.usage, recorded.run.done.state.usage);
    // The absolute path the model used points into the new folder.
    const read = ofType(run.events, "tool_call_finished").find((e) => e.toolName === "read_file")!;
    assert.deepEqual(read.args, { file_path: `${second}/a.txt` });
    assert.match(run.done.finalText, /Done/);
    assert.equal(player.unplayed(), 0);
  });
}

test("a replay whose tool result differs stops at that request with a readable diff", async () => {
  const recorded = await record("openai-compatible", workspace());
  const { player, run } = await replay("openai-compatible", recorded.file, workspace("hullo\n"));
  assert.equal(run.done.reason, "error");
  assert.match(run.done.message ?? "", /left the recording at model request 2: read_file's result differs/);
  const report = player.divergence!.report;
  assert.match(report, /^The replay left the recording at model request 2 \(closest recorded request: #2 of 4\):/);
  assert.match(report, /at message 4: read_file's result differs/);
  assert.match(report, /^ {4}- {6}1\thello$/m);
  assert.match(report, /^ {4}\+ {6}1\thullo$/m);
  assert.match(report, /record it again \(--record\)/);
});

test("a command's result is compared by how it ended, not by its output", async () => {
  const root = workspace();
  const recorded = await record("anthropic", root, [
    { toolCalls: [{ name: "execute", arguments: { command: "date +%s%N" } }] },
    { text: "It printed the time." },
  ]);
  assert.equal(recorded.run.done.reason, "completed");
  // Another time, same exit code: the replay goes on.
  const same = await replay("anthropic", recorded.file, workspace());
  assert.equal(same.player.divergence, undefined, same.player.divergence?.report);

  const failing = await record("anthropic", workspace(), [
    { toolCalls: [{ name: "execute", arguments: { command: "test -e a.txt" } }] },
    { text: "It is there." },
  ]);
  const gone = workspace();
  rmSync(path.join(gone, "a.txt"));
  const changed = await replay("anthropic", failing.file, gone);
  assert.equal(changed.run.done.reason, "error");
  assert.match(changed.player.divergence!.what, /^execute ended differently: exit code 1, recorded exit code 0$/);
});

test("a different message from the person, or a different tool called, is a divergence", async () => {
  const recorded = await record("openai-compatible", workspace());
  const other = await replay("openai-compatible", recorded.file, workspace(), "change hello to ciao");
  assert.match(
    other.player.divergence!.report,
    /at message 1: the person's message differs\n {4}- change hello to bye\n {4}\+ change hello to ciao/,
  );

  // What the agent sent, tool by tool: two requests that differ in the call made.
  const cassette = readCassette(recorded.file);
  const second = cassette.exchanges[1]!;
  const recordedConversation = conversationOf(second.request.path, second.request.body);
  const body = structuredClone(second.request.body) as {
    messages: { tool_calls?: { function: { name: string; arguments: string } }[] }[];
  };
  const call = body.messages.find((m) => m.tool_calls)!.tool_calls![0]!;
  call.function.name = "grep";
  call.function.arguments = JSON.stringify({ pattern: "hello" });
  const d = firstDifference(recordedConversation, conversationOf(second.request.path, body))!;
  assert.equal(d.what, "a different tool was called: grep where the recording calls read_file");
});

test("a replay that stops before the recording does (a guard, a limit) says so", async () => {
  const recorded = await record("openai-compatible", workspace());
  const root = workspace();
  const player = new CassettePlayer(readCassette(recorded.file), { workspaceRoot: root });
  const agent = createAgent({
    model: createModel({
      provider: "openai-compatible",
      model: "scripted",
      baseUrl: REPLAY_BASE_URL["openai-compatible"],
      fetch: player.fetch,
    }),
    workspaceRoot: root,
    backend: new FilesystemBackend({ rootDir: root }),
    executor: new ChildProcessExecutor(),
    maxSteps: 2,
  });
  const run = await collect(agent, "change hello to bye");
  assert.equal(run.done.reason, "max_steps");
  assert.equal(player.divergence, undefined);
  assert.match(
    player.verdict()!.report,
    /^The replay ended before the recording: the run ended after 2 model requests; the recording has 2 more\./,
  );
});

test("a retried request is recorded with its failure and replayed the same way", async () => {
  const root = workspace();
  const recorded = await record("openai-compatible", root, [faults.rateLimited({ ms: 1 }), { text: "Hi." }]);
  assert.equal(recorded.run.done.finalText, "Hi.");
  const cassette = readCassette(recorded.file);
  assert.deepEqual(
    cassette.exchanges.map((x) => x.response?.status),
    [429, 200],
  );
  assert.equal(cassette.exchanges[0]!.response!.headers["retry-after-ms"], "1");
  const again = await replay("openai-compatible", recorded.file, workspace());
  assert.equal(again.run.done.finalText, "Hi.");
  assert.equal(ofType(again.run.events, "warning").filter((w) => w.code === "model_retry").length, 1);
  assert.equal(again.player.divergence, undefined);
});

test("paths split across streamed fragments are replaced as a whole, keeping the events", () => {
  const events: RecordedEvent[] = [
    {
      at: 0,
      json: {
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { name: "read_file", arguments: "" } }] } }],
      },
    },
    {
      at: 1,
      json: {
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"file_path":"/tmp/w' } }] } }],
      },
    },
    {
      at: 2,
      json: { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: 's1/a.txt"}' } }] } }] },
    },
    {
      at: 3,
      event: "content_block_delta",
      json: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "in /tmp/" } },
    },
    {
      at: 4,
      event: "content_block_delta",
      json: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ws1 now" } },
    },
    { at: 5, data: "[DONE]" },
  ];
  const out = replaceInEvents(events, (t) => t.split("/tmp/ws1").join("{{workspace}}"));
  assert.equal(out.length, events.length);
  const args = out
    .map(
      (e) =>
        (e.json as { choices?: { delta: { tool_calls?: { function: { arguments: string } }[] } }[] })?.choices?.[0]
          ?.delta.tool_calls?.[0]?.function.arguments,
    )
    .join("");
  assert.equal(args, '{"file_path":"{{workspace}}/a.txt"}');
  assert.equal(
    out
      .slice(3, 5)
      .map((e) => (e.json as { delta: { text: string } }).delta.text)
      .join(""),
    "in {{workspace}} now",
  );
  assert.deepEqual(
    out.map((e) => e.at),
    [0, 1, 2, 3, 4, 5],
  );
  assert.equal(
    (events[1]!.json as { choices: { delta: { tool_calls: { function: { arguments: string } }[] } }[] }).choices[0]!
      .delta.tool_calls[0]!.function.arguments,
    '{"file_path":"/tmp/w',
    "the original is not changed",
  );
});

test("a malformed recording is refused with the file and line", () => {
  assert.throws(
    () => parseCassette('{"type":"exchange"}\n', "x.jsonl"),
    /x\.jsonl:1: the first line must be the header/,
  );
  assert.throws(
    () => parseCassette('{"type":"cassette","version":1,"provider":"openai","model":"m"}\nnot json\n', "x.jsonl"),
    /x\.jsonl:2: not JSON/,
  );
  assert.throws(
    () => parseCassette('{"type":"cassette","version":2,"provider":"openai","model":"m"}\n', "x.jsonl"),
    /version 2; this Fathom reads version 1/,
  );
  assert.throws(
    () =>
      parseCassette(
        '{"type":"cassette","version":1,"provider":"openai","model":"m"}\n{"type":"exchange","seq":1}\n',
        "x.jsonl",
      ),
    /x\.jsonl:2: not an exchange/,
  );
});

test("lineDiff shows what changed with a line of context", () => {
  assert.deepEqual(lineDiff("a\nb\nc\nd\ne\n", "a\nb\nX\nd\ne\n"), ["  …", "  b", "- c", "+ X", "  d", "  …"]);
});
