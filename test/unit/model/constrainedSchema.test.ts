// The reply schema of constrained mode (issue 33): the union of every offered tool's arguments
// plus `answer`, checked with a real JSON Schema validator (ajv, as a server's grammar would hold
// it): every built-in tool and an MCP tool with a nested schema ($defs, $ref, arrays of objects).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Ajv from "ajv";
import { createAgent } from "../../../src/core/agent/createAgent";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { ChildProcessExecutor } from "../../../src/core/executor/childProcessExecutor";
import { ANSWER_TOOL, STRING_LIMITS, constrainedSchema } from "../../../src/core/model/toolCalls/constrainedSchema";
import type { ToolSpec } from "../../../src/core/model/types";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

/** The tools a full-profile agent offers, as the model gets them. */
async function builtInSpecs(): Promise<ToolSpec[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-schema-"));
  let tools: ToolSpec[] = [];
  const model = new FakeModel([(request) => ((tools = request.tools), { text: "ok" })]);
  // FakeModel records names only: keep the specs from the request itself.
  const spy = {
    ...model,
    provider: model.provider,
    model: "fake",
    contextWindow: 100_000,
    stream: (r: Parameters<FakeModel["stream"]>[0]) => ((tools = r.tools), model.stream(r)),
  };
  await collect(
    createAgent({
      model: spy,
      workspaceRoot: dir,
      backend: new FilesystemBackend({ rootDir: dir }),
      executor: new ChildProcessExecutor(),
      rules: false,
    }),
    "x",
  );
  return tools;
}

const MCP_NESTED: ToolSpec = {
  name: "mcp__tracker__create_issue",
  description: "Create an issue.",
  parameters: {
    type: "object",
    properties: {
      title: { type: "string", description: "The title" },
      labels: { type: "array", items: { $ref: "#/$defs/label" } },
      assignee: {
        type: "object",
        properties: {
          login: { type: "string" },
          team: { type: "object", properties: { slug: { type: "string" } }, required: ["slug"] },
        },
        required: ["login"],
      },
      priority: { type: "integer", enum: [1, 2, 3] },
    },
    required: ["title"],
    $defs: {
      label: {
        type: "object",
        properties: { name: { type: "string" }, color: { type: "string", pattern: "^[0-9a-f]{6}$" } },
        required: ["name"],
      },
    },
  },
};

function walk(node: unknown, visit: (n: Record<string, unknown>, at: string) => void, at = "#"): void {
  if (Array.isArray(node)) return node.forEach((n, i) => walk(n, visit, `${at}/${i}`));
  if (typeof node !== "object" || node === null) return;
  visit(node as Record<string, unknown>, at);
  for (const [k, v] of Object.entries(node)) walk(v, visit, `${at}/${k}`);
}

test("the union of every built-in tool and an MCP tool with a nested schema: valid calls pass, others fail, every string is bounded", async () => {
  const specs = [...(await builtInSpecs()), MCP_NESTED];
  assert.deepEqual(
    specs.map((s) => s.name),
    [
      "write_todos",
      "ask_user",
      "web_fetch",
      "ls",
      "read_file",
      "write_file",
      "edit_file",
      "glob",
      "grep",
      "execute",
      "task",
      "mcp__tracker__create_issue",
    ],
  );
  const schema = constrainedSchema(specs);
  const validate = new Ajv({ strict: false }).compile(schema);
  const ok = (reply: unknown) =>
    assert.ok(validate(reply), `${JSON.stringify(reply)}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  const bad = (reply: unknown) => assert.equal(validate(reply), false, `${JSON.stringify(reply)} should not pass`);
  ok({ tool: "ls", arguments: {} });
  ok({ tool: "read_file", arguments: { file_path: "/a.txt" } });
  ok({ tool: "write_file", arguments: { file_path: "/a.txt", content: "hi" } });
  ok({ tool: "edit_file", arguments: { file_path: "/a.txt", old_string: "a", new_string: "b" } });
  ok({ tool: "execute", arguments: { command: "ls" } });
  ok({ tool: "grep", arguments: { pattern: "x" } });
  ok({ tool: "glob", arguments: { pattern: "**/*.ts" } });
  ok({ tool: ANSWER_TOOL, arguments: { text: "Hello!" } });
  ok({
    tool: "mcp__tracker__create_issue",
    arguments: {
      title: "t",
      labels: [{ name: "bug", color: "ff0000" }],
      assignee: { login: "a", team: { slug: "core" } },
      priority: 2,
    },
  });
  bad({ tool: "read_file", arguments: {} }); // missing a required argument
  bad({ tool: "read_file", arguments: { file_path: 3 } }); // wrong type
  bad({ tool: "read_file", arguments: { file_path: "/a", extra: 1 } }); // objects are closed
  bad({ tool: "rm_rf", arguments: {} }); // no such tool
  bad({ tool: ANSWER_TOOL, arguments: { text: "" } }); // an empty answer
  bad({ tool: "mcp__tracker__create_issue", arguments: { title: "t", labels: [{ color: "ff0000" }] } }); // the nested $ref holds
  bad({ tool: "mcp__tracker__create_issue", arguments: { title: "t", assignee: { login: "a", team: {} } } }); // two levels down
  bad({ tool: "execute", arguments: { command: "x".repeat(STRING_LIMITS.byName.command! + 1) } }); // strings are bounded
  bad({ tool: "read_file", arguments: { file_path: "/a" }, note: "hi" }); // nothing beside tool and arguments
  // Every string the model can write has a maxLength (fixed strings, enums and refs aside), and no description is sent.
  walk(schema, (n, at) => {
    const types = Array.isArray(n.type) ? n.type : [n.type];
    if (types.includes("string") && !("enum" in n) && !("const" in n))
      assert.equal(typeof n.maxLength, "number", `${at} has no maxLength`);
    assert.equal("description" in n && typeof n.description === "string", false, `${at} keeps a description`);
  });
});

test("answer only: the last step's schema has one branch", () => {
  const schema = constrainedSchema(
    [
      MCP_NESTED,
      { name: "ls", description: "", parameters: { type: "object", properties: { path: { type: "string" } } } },
    ],
    { answerOnly: true },
  );
  const validate = new Ajv({ strict: false }).compile(schema);
  assert.ok(validate({ tool: ANSWER_TOOL, arguments: { text: "done" } }));
  assert.equal(validate({ tool: "ls", arguments: {} }), false);
  assert.equal(JSON.stringify(schema).includes("mcp__"), false);
});
