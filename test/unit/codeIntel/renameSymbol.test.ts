import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ApprovalDecision, ApprovalRequest } from "../../../src/core/approval";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { FakeModel } from "../../support/fakeModel";
import { collect, ofType } from "../../support/agentTestKit";
import { FakeIntel, type FakeIntelScript } from "./fakeIntel";

const GREETER = "export function greet(name: string) {\n  return name;\n}\n";
const MAIN = 'import { greet } from "./greeter";\r\ngreet("a");\r\ngreet("b");\r\n';

/** The server's rename of `greet` to `hello` in both files. */
const RENAME: FakeIntelScript = {
  rename: {
    files: [
      { path: "/src/greeter.ts", edits: [{ line: 1, column: 17, endLine: 1, endColumn: 22, newText: "hello" }] },
      {
        path: "/src/main.ts",
        edits: [
          { line: 1, column: 10, endLine: 1, endColumn: 15, newText: "hello" },
          { line: 2, column: 1, endLine: 2, endColumn: 6, newText: "hello" },
          { line: 3, column: 1, endLine: 3, endColumn: 6, newText: "hello" },
        ],
      },
    ],
  },
};

function setup(script: FakeIntelScript, decide: (r: ApprovalRequest) => ApprovalDecision) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-rename-"));
  fs.mkdirSync(path.join(root, "src"));
  fs.writeFileSync(path.join(root, "src/greeter.ts"), GREETER);
  fs.writeFileSync(path.join(root, "src/main.ts"), MAIN);
  const asked: ApprovalRequest[] = [];
  const approvalGate = { request: async (r: ApprovalRequest) => (asked.push(r), decide(r)) };
  const model = new FakeModel([
    {
      toolCalls: [
        { id: "rn", name: "rename_symbol", arguments: { path: "/src/greeter.ts", symbol: "greet", new_name: "hello" } },
      ],
    },
    { text: "Renamed." },
  ]);
  const intel = new FakeIntel(script);
  const agent = createAgent({
    model,
    workspaceRoot: root,
    backend: new FilesystemBackend({ rootDir: root }),
    approvalGate,
    codeIntelligence: intel,
    rules: false,
    generalPurposeSubagent: false,
  });
  const read = (rel: string) => fs.readFileSync(path.join(root, rel), "utf8");
  return { agent, asked, intel, read, model };
}

test("rename_symbol: the server's edits become one proposed edit per file, each asked and written as approved", async () => {
  const { agent, asked, intel, read } = setup(RENAME, () => ({ type: "approve" }));
  const { events, done } = await collect(agent, "rename greet to hello");
  assert.deepEqual(intel.asked.at(-1), {
    method: "rename",
    at: { path: "/src/greeter.ts", line: 1, column: 17 },
    newName: "hello",
  });
  // One request per file, each an edit with its whole-file proposal (a diff card of its own).
  assert.deepEqual(
    asked.map((r) => [r.toolCallId, r.toolName, r.kind, r.proposal?.path]),
    [
      ["rn_file1", "rename_in_file", "edit", "/src/greeter.ts"],
      ["rn_file2", "rename_in_file", "edit", "/src/main.ts"],
    ],
  );
  assert.equal(asked[1]!.proposal!.before, MAIN);
  assert.equal(asked[1]!.proposal!.after, 'import { hello } from "./greeter";\r\nhello("a");\r\nhello("b");\r\n');
  assert.equal(read("src/greeter.ts"), GREETER.replace("greet", "hello"));
  assert.equal(read("src/main.ts"), MAIN.replaceAll("greet(", "hello(").replace("{ greet }", "{ hello }"));
  // Each file's call is a card of its own: started, asked, finished.
  for (const id of ["rn_file1", "rn_file2"]) {
    assert.ok(ofType(events, "tool_call_started").some((e) => e.toolCallId === id && e.toolName === "rename_in_file"));
    assert.ok(ofType(events, "approval_requested").some((e) => e.toolCallId === id && e.proposal));
    assert.ok(ofType(events, "tool_call_finished").some((e) => e.toolCallId === id && !e.isError));
  }
  const result = done.state.messages.find((m) => m.role === "tool")!;
  assert.match(result.content, /^Renamed `greet` to `hello` in 2 files\.\n- \/src\/greeter\.ts \(1 edit\): Renamed in/);
  assert.match(result.content, /Used the declaration of `greet`|first occurrence/);
});

test("rename_symbol: the person's rejection of a file stops the rest, and the model hears the rename is partial", async () => {
  const { agent, asked, read } = setup(RENAME, (r) =>
    r.toolCallId === "rn_file1" ? { type: "approve" } : { type: "reject", reason: "not main" },
  );
  const { done } = await collect(agent, "rename");
  assert.equal(asked.length, 2);
  assert.equal(read("src/main.ts"), MAIN, "the rejected file is untouched");
  assert.match(read("src/greeter.ts"), /function hello/);
  const result = done.state.messages.find((m) => m.role === "tool")!;
  assert.match(result.content, /Renamed `greet` to `hello` in only 1 of 2 files: the code may not build/);
  assert.match(
    result.content,
    /\/src\/main\.ts \(3 edits\): The person rejected this rename_in_file call\. Their reason: not main/,
  );
});

test("rename_symbol: a rename reaching outside the workspace is refused whole, and nothing is asked or written", async () => {
  const script: FakeIntelScript = {
    rename: {
      files: [
        ...(RENAME.rename as { files: [] }).files,
        { outside: "node_modules.d.ts", edits: [{ line: 1, column: 1, endLine: 1, endColumn: 2, newText: "x" }] },
      ],
    },
  };
  const { agent, asked, read } = setup(script, () => ({ type: "approve" }));
  const { done } = await collect(agent, "rename");
  assert.deepEqual(asked, []);
  assert.equal(read("src/greeter.ts"), GREETER);
  const result = done.state.messages.find((m) => m.role === "tool")!;
  assert.equal(result.isError, true);
  assert.match(
    result.content,
    /^Not renamed: the rename would also change 1 file outside the workspace \(node_modules\.d\.ts\)/,
  );
});

test("rename_symbol: edits that no longer fit the file (it changed since the server read it) are refused for that file", async () => {
  const { agent, asked, read } = setup(
    {
      rename: {
        files: [{ path: "/src/greeter.ts", edits: [{ line: 40, column: 1, endLine: 40, endColumn: 5, newText: "x" }] }],
      },
    },
    () => ({ type: "approve" }),
  );
  const { done } = await collect(agent, "rename");
  assert.deepEqual(asked, [], "a proposal that cannot be made is not asked");
  assert.equal(read("src/greeter.ts"), GREETER);
  const result = done.state.messages.find((m) => m.role === "tool")!;
  assert.match(result.content, /Did not rename `greet` to `hello`: no file was changed\./);
  assert.match(result.content, /the file changed since the language server read it\. Call rename_symbol again\./);
});

test("without a CodeIntelligence the tools are not offered; in Plan mode only the lookups are", async () => {
  const model = new FakeModel([
    { text: "ok" },
    { toolCalls: [{ name: "ls", arguments: { path: "/" } }] },
    { text: "plan" },
  ]);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-rename-"));
  const backend = new FilesystemBackend({ rootDir: root });
  const base = { model, workspaceRoot: root, backend, rules: false, generalPurposeSubagent: false } as const;
  await collect(createAgent(base), "hi");
  assert.ok(!model.requests[0]!.toolNames.some((n) => /symbol|find_|hover|problems/.test(n)));
  await collect(createAgent({ ...base, codeIntelligence: new FakeIntel() }), "plan it", { mode: "plan" });
  // Offered from the run's second step on (middleware/afterFirstTool.ts).
  const offered = model.requests[2]!.toolNames;
  for (const name of [
    "find_definition",
    "find_references",
    "document_symbols",
    "workspace_symbols",
    "hover",
    "get_problems",
  ])
    assert.ok(offered.includes(name), name);
  assert.ok(!offered.includes("rename_symbol"), "a rename changes files: not in Plan mode");
  assert.match(model.requests[2]!.system, /# Code intelligence/);
});
