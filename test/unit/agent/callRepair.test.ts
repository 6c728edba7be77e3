// Repair before refusal (issue 33): a call whose intent is plain is read as meant; anything with
// two readings is not guessed, and fails with the error and the tool's schema.
import { test } from "node:test";
import assert from "node:assert/strict";
import { repairCall, resolveToolName } from "../../../src/core/agent/callRepair";
import type { ToolSpec } from "../../../src/core/model/types";

const spec = (name: string, properties: Record<string, unknown>, required: string[]): [string, ToolSpec] => [
  name,
  { name, description: "", parameters: { type: "object", properties, required } },
];
const TOOLS = new Map<string, ToolSpec>([
  spec(
    "read_file",
    { file_path: { type: "string" }, offset: { type: "integer" }, limit: { type: "integer", default: 2000 } },
    ["file_path"],
  ),
  spec("write_file", { file_path: { type: "string" }, content: { type: "string" } }, ["file_path", "content"]),
  spec(
    "edit_file",
    {
      file_path: { type: "string" },
      old_string: { type: "string" },
      new_string: { type: "string" },
      replace_all: { type: "boolean" },
    },
    ["file_path", "old_string", "new_string"],
  ),
  spec("execute", { command: { type: "string" }, timeout: { type: "number" } }, ["command"]),
  spec("ls", { path: { type: "string" } }, []),
]);

test("prose and a fence around the JSON: the first object is the arguments", () => {
  const r = repairCall(
    "read_file",
    'Sure! Here it is:\n```json\n{"file_path": "/a.txt"}\n```\nHope this helps {',
    TOOLS,
  );
  assert.equal(r.name, "read_file");
  assert.deepEqual(r.args, { file_path: "/a.txt", limit: 2000 });
  assert.ok(r.fixes.some((f) => /taken out of the text/.test(f)));
});

test("a tool's name: any case, a unique prefix, one near miss; nothing when two tools fit", () => {
  const names = [...TOOLS.keys()];
  assert.equal(resolveToolName("Read_File", names), "read_file");
  assert.equal(resolveToolName("read", names), "read_file");
  assert.equal(resolveToolName("exec", names), "execute");
  assert.equal(resolveToolName("reaf_file", names), "read_file");
  assert.equal(resolveToolName("write file", names), "write_file");
  assert.equal(resolveToolName("file", names), undefined, "no tool starts with it, and it is far from all");
  assert.equal(resolveToolName("e", names), undefined, "too short to be a prefix");
  assert.equal(resolveToolName("rm", names), undefined);
  const r = repairCall("readfile", '{"file_path": "/x"}', TOOLS);
  assert.equal(r.name, "read_file");
  assert.match(r.fixes[0]!, /tool "readfile" read as read_file/);
});

test("obvious types are coerced, others are left for validation to refuse", () => {
  const r = repairCall("read_file", '{"file_path": "/a", "offset": "3", "limit": "10"}', TOOLS);
  assert.deepEqual(r.args, { file_path: "/a", offset: 3, limit: 10 });
  const e = repairCall(
    "edit_file",
    '{"file_path": "/a", "old_string": 1, "new_string": 2, "replace_all": "true"}',
    TOOLS,
  );
  assert.deepEqual(e.args, { file_path: "/a", old_string: "1", new_string: "2", replace_all: true });
  const left = repairCall("read_file", '{"file_path": "/a", "offset": "three"}', TOOLS);
  assert.deepEqual(left.args, { file_path: "/a", offset: "three", limit: 2000 }, "not a number: left as it is");
  const nested = repairCall("execute", '"{\\"command\\": \\"ls\\"}"', TOOLS);
  assert.deepEqual(nested.args, { command: "ls" }, "arguments given as a JSON string");
});

test("a missing argument: a default is filled, a near-named one is renamed, a truly missing one is not invented", () => {
  assert.deepEqual(repairCall("read_file", '{"file_path": "/a"}', TOOLS).args, { file_path: "/a", limit: 2000 });
  const renamed = repairCall("read_file", '{"path": "/a"}', TOOLS);
  assert.deepEqual(renamed.args, { file_path: "/a", limit: 2000 });
  assert.ok(renamed.fixes.some((f) => /"path" read as file_path/.test(f)));
  const missing = repairCall("write_file", '{"file_path": "/a"}', TOOLS);
  assert.deepEqual(missing.args, { file_path: "/a" }, "content is not made up");
  const twoMissing = repairCall("edit_file", '{"file": "/a", "old": "x"}', TOOLS);
  assert.deepEqual(twoMissing.args, { file: "/a", old: "x" }, "two missing, two unknown: no guess");
  assert.equal(
    typeof repairCall("execute", "run ls please", TOOLS).args,
    "string",
    "no JSON at all: nothing to repair",
  );
});
