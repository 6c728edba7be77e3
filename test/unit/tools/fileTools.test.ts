import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { createFileTools } from "../../../src/core/tools/fileTools";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { StateBackend } from "../../../src/core/backends/state";
import type { Tool, ToolContext } from "../../../src/core/tools/tool";
import { makeSandbox } from "../backends/helpers";

const ctx: ToolContext = { signal: new AbortController().signal, toolCallId: "t1" };

function byName(tools: Tool[]): Record<string, Tool> {
  return Object.fromEntries(tools.map((t) => [t.name, t]));
}
async function call(t: Tool | undefined, args: unknown) {
  assert.ok(t);
  return t.run(t.schema.parse(args), ctx);
}

describe("file tools", () => {
  const s = makeSandbox({
    "src/a.ts": "export const a = 1;\nexport const b = 2;\n",
    "big.txt": "y".repeat(200) + "\n",
  });
  after(s.cleanup);
  const backend = new FilesystemBackend({ rootDir: s.root, ripgrepPath: null });
  const tools = byName(createFileTools(backend, { maxOutputChars: 1000 }));

  it("are the six tools of DESIGN.md with the right kinds and argument names", () => {
    assert.deepEqual(Object.keys(tools), ["ls", "read_file", "write_file", "edit_file", "glob", "grep"]);
    const kinds = Object.values(tools).map((t) => t.kind);
    assert.deepEqual(kinds, ["read", "read", "edit", "edit", "read", "read"]);
    const props = (t: Tool) => Object.keys((z.toJSONSchema(t.schema) as { properties: object }).properties);
    assert.deepEqual(props(tools.read_file as Tool), ["file_path", "offset", "limit"]);
    assert.deepEqual(props(tools.edit_file as Tool), ["file_path", "old_string", "new_string", "replace_all"]);
    assert.deepEqual(props(tools.grep as Tool), ["pattern", "path", "glob", "output_mode"]);
    assert.deepEqual(props(tools.glob as Tool), ["pattern", "path"]);
    assert.ok(tools.write_file?.proposeChange && tools.write_file.applyChange && tools.edit_file?.proposeChange);
    for (const t of Object.values(tools)) assert.ok(t.description.length < 400, t.name);
  });

  it("read, ls, glob and grep render for the model", async () => {
    assert.equal(
      (await call(tools.read_file, { file_path: "/src/a.ts", limit: 1 })).content.split("\n")[0],
      "     1\texport const a = 1;",
    );
    assert.equal((await call(tools.ls, {})).content, "/big.txt\n/src/");
    assert.equal((await call(tools.glob, { pattern: "**/*.ts" })).content, "/src/a.ts");
    assert.equal((await call(tools.grep, { pattern: "const b" })).content, "/src/a.ts");
    assert.equal(
      (await call(tools.grep, { pattern: "export", output_mode: "content" })).content,
      "/src/a.ts:1:export const a = 1;\n/src/a.ts:2:export const b = 2;",
    );
    assert.equal((await call(tools.grep, { pattern: "export", output_mode: "count" })).content, "/src/a.ts:2");
  });

  it("errors are results marked isError, never throws", async () => {
    const r = await call(tools.read_file, { file_path: "/../../etc/passwd" });
    assert.equal(r.isError, true);
    assert.match(r.content, /not allowed/);
    assert.equal((await call(tools.edit_file, { file_path: "/nope", old_string: "a", new_string: "b" })).isError, true);
    assert.equal((await call(tools.ls, { path: "/src/a.ts" })).isError, true);
  });

  it("outputs are capped", async () => {
    writeFileSync(
      path.join(s.root, "wide.txt"),
      Array.from({ length: 200 }, (_, i) => `line ${i} ${"z".repeat(40)}`).join("\n"),
    );
    const r = await call(tools.read_file, { file_path: "/wide.txt" });
    assert.ok(r.content.length < 1200);
    assert.match(r.content, /Output cut at 1000 characters/);
  });

  it("edit_file: propose writes nothing; apply writes what was approved; run = both", async () => {
    const edit = tools.edit_file as Tool;
    const p = await edit.proposeChange?.(
      edit.schema.parse({ file_path: "/src/a.ts", old_string: "a = 1", new_string: "a = 10" }),
      ctx,
    );
    assert.ok(p && !("error" in p));
    if (!p || "error" in p) return;
    assert.equal(p.path, "/src/a.ts");
    assert.equal(p.before, "export const a = 1;\nexport const b = 2;\n");
    assert.equal(p.after, "export const a = 10;\nexport const b = 2;\n");
    assert.equal(readFileSync(path.join(s.root, "src/a.ts"), "utf8"), p.before);
    const applied = await edit.applyChange?.({ ...p, after: p.after.replace("10", "11") }, ctx);
    assert.equal(applied?.isError, undefined);
    assert.equal(readFileSync(path.join(s.root, "src/a.ts"), "utf8"), "export const a = 11;\nexport const b = 2;\n");
    const stale = await edit.applyChange?.(p, ctx);
    assert.equal(stale?.isError, true);
    assert.match(stale?.content ?? "", /changed on disk/);
    const r = await call(edit, { file_path: "/src/a.ts", old_string: "const", new_string: "let", replace_all: true });
    assert.match(r.content, /replaced 2 occurrences/);
  });

  it("write_file: creates; refuses to overwrite an unread file", async () => {
    const w = tools.write_file as Tool;
    assert.match((await call(w, { file_path: "/n/new.md", content: "# hi\n" })).content, /Created \/n\/new\.md/);
    const r = await call(w, { file_path: "/big.txt", content: "x" });
    assert.equal(r.isError, true);
    assert.match(r.content, /Read it with read_file first/);
    const p = await w.proposeChange?.(w.schema.parse({ file_path: "/n/new2.md", content: "x" }), ctx);
    assert.ok(p && !("error" in p) && p.before === null);
  });

  it("work over any backend", async () => {
    const t = byName(createFileTools(new StateBackend({ "/m.txt": "mem\n" })));
    assert.equal((await call(t.read_file, { file_path: "/m.txt" })).content, "     1\tmem");
  });
});
