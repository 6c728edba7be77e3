// An inline edit run end to end: the real OpenAI client against the scripted model server (and the
// in-process fake model), the agent's own loop, approvals and checkpointing backend. The model is
// sent the selection and instruction with no tools; its answer streams in as the edit_selection
// call's arguments; what the person approves (changed or not) is written exactly, through the
// checkpoints; a rejection, a cancel, prose or a file changed meanwhile writes nothing.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import {
  CheckpointStore,
  FilesystemBackend,
  createModel,
  type AgentEvent,
  type ApprovalDecision,
  type ApprovalGate,
  type ApprovalRequest,
  type ChatModel,
} from "../../../src/core";
import { createInlineEditAgent } from "../../../src/core/inlineEdit/inlineEditAgent";
import type { InlineEditRequest } from "../../../src/core/inlineEdit/prompt";
import { collect, ofType } from "../../support/agentTestKit";
import { FakeModel, assertWellFormed } from "../../support/fakeModel";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";

const FILE =
  [
    "import { readFile } from 'node:fs/promises';",
    "",
    "export function load(path) {",
    "  const text = readFile(path, 'utf8');",
    "  return JSON.parse(text);",
    "}",
  ].join("\n") + "\n";
const ANSWERED = FILE.replace("  const text = readFile", "  const text = await readFile");
const REQUEST: InlineEditRequest = {
  path: "/src/load.js",
  startLine: 4,
  endLine: 5,
  instruction: "await the read",
  language: "javascript",
};

const servers: ScriptedModelServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

class Gate implements ApprovalGate {
  readonly requests: ApprovalRequest[] = [];
  constructor(
    private readonly answer: (
      request: ApprovalRequest,
      signal: AbortSignal,
    ) => ApprovalDecision | Promise<ApprovalDecision>,
  ) {}
  async request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    this.requests.push(request);
    return this.answer(request, signal);
  }
}

async function wire(
  ...turns: Parameters<ScriptedModelServer["push"]>
): Promise<{ model: ChatModel; server: ScriptedModelServer }> {
  const server = await startScriptedModelServer(turns);
  servers.push(server);
  const model = createModel({
    provider: "openai-compatible",
    model: "scripted",
    baseUrl: server.baseUrlOpenAI,
    apiKey: "sk-test",
    retryBaseDelayMs: 1,
  });
  return { model, server };
}

function setup(model: ChatModel, gate: ApprovalGate, o: { request?: InlineEditRequest; secretFiles?: string[] } = {}) {
  const root = mkdtempSync(path.join(tmpdir(), "fathom-inline-"));
  mkdirSync(path.join(root, "src"));
  writeFileSync(path.join(root, "src", "load.js"), FILE);
  const store = new CheckpointStore({ dir: mkdtempSync(path.join(tmpdir(), "fathom-inline-cp-")) });
  const agent = createInlineEditAgent(
    {
      model,
      workspaceRoot: root,
      backend: new FilesystemBackend({ rootDir: root }),
      approvalGate: gate,
      checkpoints: { store, taskId: "t1" },
      ...(o.secretFiles ? { secretFiles: o.secretFiles } : {}),
    },
    o.request ?? REQUEST,
  );
  const read = () => readFileSync(path.join(root, "src", "load.js"), "utf8");
  return { root, store, agent, read };
}

const argsOf = (events: AgentEvent[]) =>
  ofType(events, "tool_call_arguments")
    .map((e) => e.delta)
    .join("");

describe("inline edit agent", () => {
  it("approve: the model gets the selection and instruction with no tools, the answer streams in as the call's arguments, the replacement is written through the checkpoints", async () => {
    const { model, server } = await wire({
      text: "Here is the updated code:\n```js\n  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);\n```",
    });
    const gate = new Gate(() => ({ type: "approve" }));
    const { agent, read, store } = setup(model, gate);
    const { events, done } = await collect(agent, "Edit src/load.js:4-5: await the read");
    assert.equal(done.reason, "completed", done.message);
    assert.equal(read(), ANSWERED, "the file holds exactly the replacement");
    assert.equal(done.finalText, "Replaced lines 4–5 of /src/load.js.");

    assert.equal(server.requests.length, 1, "one model request: the run's end is Fathom's own sentence");
    const body = server.requests[0]!.body;
    assert.equal(body.tools, undefined, "no tools sent");
    const sent = JSON.stringify(body.messages);
    assert.match(
      sent,
      /<selection lines=\\"4-5\\">\\n {2}const text = readFile\(path, 'utf8'\);\\n {2}return JSON.parse\(text\);\\n<\/selection>/,
    );
    assert.match(sent, /Instruction: await the read/);
    assert.match(sent, /File: \/src\/load.js \(javascript\)/);
    assert.match(body.messages[0].content, /only the new text for the selected lines/);

    // The call streamed: the path first (so the diff opens at once), then the answer in pieces.
    const started = ofType(events, "tool_call_started");
    assert.deepEqual(
      started.map((e) => e.toolName),
      ["edit_selection"],
    );
    const deltas = ofType(events, "tool_call_arguments");
    assert.ok(deltas.length > 3, `${deltas.length} pieces`);
    assert.match(
      deltas[0]!.delta,
      /^\{"file_path":"\/src\/load.js","start_line":4,"end_line":5,"file_version":"[0-9a-f]{16}","answer":"$/,
    );
    assert.deepEqual(
      JSON.parse(argsOf(events)),
      JSON.parse(JSON.stringify(ofType(events, "approval_requested")[0]!.args)),
    );
    const asked = gate.requests[0]!;
    assert.deepEqual(asked.proposal, { path: "/src/load.js", before: FILE, after: ANSWERED });
    assert.equal(asked.kind, "edit");

    const checkpoints = await store.checkpoints("t1");
    assert.deepEqual(
      checkpoints.flatMap((c) => c.files),
      ["/src/load.js"],
      "the write is checkpointed",
    );
    assertWellFormed(done.state.messages);
  });

  it("edit before approve: what the person left on the right side is written, and the chat says so", async () => {
    const { model } = await wire({ text: "  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);" });
    const mine = ANSWERED.replace("return JSON.parse(text);", "return JSON.parse(text); // checked");
    const { agent, read } = setup(model, new Gate(() => ({ type: "edit", content: mine })));
    const { done } = await collect(agent, "Edit");
    assert.equal(read(), mine);
    assert.equal(done.finalText, "Replaced lines 4–5 of /src/load.js with your changes to the proposal.");
  });

  it("reject: nothing is written; the person's reason is repeated", async () => {
    const { model } = await wire(
      { text: "  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);" },
      { text: "x" },
    );
    const { agent, read } = setup(model, new Gate(() => ({ type: "reject", reason: "keep it sync" })));
    const { done } = await collect(agent, "Edit");
    assert.equal(read(), FILE);
    assert.equal(done.finalText, "Nothing was written: keep it sync");
    const quiet = setup(
      (await wire({ text: "  const text = 1;\n  return text;" })).model,
      new Gate(() => ({ type: "reject" })),
    );
    assert.equal(
      (await collect(quiet.agent, "Edit")).done.finalText,
      "You rejected the change to lines 4–5 of /src/load.js; nothing was written.",
    );
    assert.equal(quiet.read(), FILE);
  });

  it("cancel mid-stream: the model's stream stops, nothing is asked or written", async () => {
    const { model, server } = await wire({ fault: "stall", text: "  const text = await" });
    const gate = new Gate(() => ({ type: "approve" }));
    const { agent, read } = setup(model, gate);
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const event of agent.run("Edit", { signal: controller.signal })) {
      events.push(event);
      if (event.type === "tool_call_arguments" && argsOf(events).includes("await")) controller.abort();
    }
    const done = events.at(-1) as Extract<AgentEvent, { type: "done" }>;
    assert.equal(done.reason, "cancelled");
    assert.equal(gate.requests.length, 0);
    assert.equal(read(), FILE);
    assert.equal(server.requests.length, 1);
  });

  it("cancel while the diff waits: the pending approval is rejected and nothing is written", async () => {
    const { model } = await wire({ text: "  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);" });
    const controller = new AbortController();
    const gate = new Gate(
      (_request, signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => resolve({ type: "reject", reason: "cancelled" }), { once: true });
          setTimeout(() => controller.abort(), 10);
        }),
    );
    const { agent, read } = setup(model, gate);
    const { done } = await collect(agent, "Edit", { signal: controller.signal });
    assert.equal(done.reason, "cancelled");
    assert.equal(gate.requests.length, 1);
    assert.equal(read(), FILE);
  });

  it("prose, a cut-off answer or a 'Cannot:' is refused with a message, never proposed or written", async () => {
    for (const [turn, expected] of [
      [
        { text: "This function reads a file and parses it as JSON, so it is already correct." },
        /^The model answered with an explanation instead of the new text: “This function reads/,
      ],
      [{ text: "  const text = await readFile(pa", stopReason: "length" }, /cut off at its output limit/],
      [
        { text: "Cannot: the selection has no read to await." },
        /The model says it cannot do this: the selection has no read to await\./,
      ],
    ] as const) {
      const gate = new Gate(() => ({ type: "approve" }));
      const { agent, read } = setup((await wire(turn)).model, gate);
      const { events, done } = await collect(agent, "Edit");
      assert.equal(done.reason, "completed");
      assert.match(done.finalText, expected);
      assert.match(done.finalText, /Run Fathom: Edit Selection… again/);
      assert.equal(gate.requests.length, 0, "nothing to approve");
      assert.equal(ofType(events, "tool_call_finished")[0]!.isError, true);
      assert.equal(read(), FILE);
    }
  });

  it("a file changed after the model was sent the selection is not written", async () => {
    let root = "";
    const model = new FakeModel([
      () => {
        writeFileSync(path.join(root, "src", "load.js"), FILE.replace("load", "loadJson"));
        return { text: "  const text = 1;\n  return text;" };
      },
    ]);
    const gate = new Gate(() => ({ type: "approve" }));
    const s = setup(new FakeModel([]), gate);
    root = s.root;
    const agent = createInlineEditAgent(
      { model, workspaceRoot: root, backend: new FilesystemBackend({ rootDir: root }), approvalGate: gate },
      REQUEST,
    );
    const { done } = await collect(agent, "Edit");
    assert.match(done.finalText, /changed after the model was sent its lines 4–5/);
    assert.equal(gate.requests.length, 0);
    assert.equal(s.read(), FILE.replace("load", "loadJson"));
  });

  it("a secret file, or a range the file no longer has, is said without asking the model", async () => {
    const model = new FakeModel([]);
    const secret = setup(model, new Gate(() => ({ type: "approve" })), { secretFiles: ["src/load.js"] });
    assert.match(
      (await collect(secret.agent, "Edit")).done.finalText,
      /may hold secrets \(it matches src\/load\.js in fathom\.secretFiles\), so it is not sent to the model/,
    );
    const gone = setup(model, new Gate(() => ({ type: "approve" })), {
      request: { ...REQUEST, startLine: 40, endLine: 41 },
    });
    assert.match(
      (await collect(gone.agent, "Edit")).done.finalText,
      /The file has 7 lines now, so lines 40–41 are not in it\. Select the lines again/,
    );
    assert.equal(model.requests.length, 0);
  });

  it("a resumed run asks again about the saved call, and ends without a new model request", async () => {
    const { model, server } = await wire({
      text: "  const text = await readFile(path, 'utf8');\n  return JSON.parse(text);",
    });
    const controller = new AbortController();
    const first = setup(
      model,
      new Gate(
        (_r, signal) =>
          new Promise((resolve) => {
            signal.addEventListener("abort", () => resolve({ type: "reject", reason: "cancelled" }), { once: true });
            setTimeout(() => controller.abort(), 10);
          }),
      ),
    );
    // The window went away while the diff waited: the saved state ends with the call, unanswered.
    const events: AgentEvent[] = [];
    let saved: Extract<AgentEvent, { type: "done" }>["state"] | undefined;
    for await (const event of first.agent.run("Edit", { signal: controller.signal })) {
      events.push(event);
      if (event.type === "done") saved = event.state;
    }
    const call = ofType(events, "tool_call_started")[0]!.toolCallId;
    const state = structuredClone(saved!);
    state.messages = state.messages.filter((m) => m.role !== "tool");
    const again = createInlineEditAgent(
      {
        model,
        workspaceRoot: first.root,
        backend: new FilesystemBackend({ rootDir: first.root }),
        approvalGate: new Gate(() => ({ type: "approve" })),
      },
      REQUEST,
    );
    const { done } = await collect(again, "", { state, askAgain: [call] });
    assert.equal(done.finalText, "Replaced lines 4–5 of /src/load.js.");
    assert.equal(first.read(), ANSWERED);
    assert.equal(server.requests.length, 1);
  });
});
