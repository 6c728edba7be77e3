// A path a model gets nearly right (a dropped leading dot, a path from inside a folder) is read as
// meant and said so; several candidates or a secret file are named for the next call, never read.
import { describe, it, after } from "node:test";
import assert from "node:assert/strict";
import { createFileTools } from "../../../src/core/tools/fileTools";
import { nearMissPath } from "../../../src/core/tools/nearMissPath";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { StateBackend } from "../../../src/core/backends/state";
import type { BackendProtocol } from "../../../src/core/backends/protocol";
import type { Tool, ToolContext } from "../../../src/core/tools/tool";
import { secretFileMatcher } from "../../../src/core/trust/secretFiles";
import { makeSandbox } from "../backends/helpers";

const ctx: ToolContext = { signal: new AbortController().signal, toolCallId: "t1" };
const files = {
  ".docs/instructions.md": "# Two fer\nSay one for you.\n",
  "pkg/src/two_fer.py": "def two_fer(name):\n    pass\n",
  "a/util.py": "A = 1\n",
  "b/util.py": "B = 2\n",
  ".env": "TOKEN=secret\n",
};

async function call(tools: Tool[], name: string, args: unknown) {
  const tool = tools.find((t) => t.name === name);
  assert.ok(tool);
  return tool.run(tool.schema.parse(args), ctx);
}

function suite(label: string, make: () => BackendProtocol) {
  describe(`near-miss paths (${label})`, () => {
    const backend = make();
    const tools = createFileTools(backend, { isSecret: secretFileMatcher() });

    it("reads /.docs/x when /docs/x was asked, and says which file it is", async () => {
      const r = await call(tools, "read_file", { file_path: "/docs/instructions.md" });
      assert.equal(r.isError, undefined);
      assert.match(r.content, /^\(\/docs\/instructions\.md does not exist; this is \/\.docs\/instructions\.md\.\)\n/);
      assert.match(r.content, /Say one for you\./);
    });

    it("reads a path written from inside a folder, and a ./ path", async () => {
      for (const asked of ["src/two_fer.py", "./src/two_fer.py", "/two_fer.py"]) {
        const r = await call(tools, "read_file", { file_path: asked });
        assert.equal(r.isError, undefined, asked);
        assert.match(r.content, /this is \/pkg\/src\/two_fer\.py/);
        assert.match(r.content, /def two_fer/);
      }
    });

    it("names the candidates when more than one file could be meant, and reads none", async () => {
      const r = await call(tools, "read_file", { file_path: "/util.py" });
      assert.equal(r.isError, true);
      assert.match(r.content, /^File not found: \/util\.py\./);
      assert.match(r.content, /Did you mean \/a\/util\.py or \/b\/util\.py\? Call read_file with one of them\./);
      assert.doesNotMatch(r.content, /A = 1|B = 2/);
    });

    it("never reads a secret file by a near miss: it names it, so reading it is asked", async () => {
      const r = await call(tools, "read_file", { file_path: "/env" });
      assert.equal(r.isError, true);
      assert.match(r.content, /Did you mean \/\.env\?/);
      assert.doesNotMatch(r.content, /TOKEN/);
    });

    it("edit_file on a near miss suggests the path and writes nothing", async () => {
      const r = await call(tools, "edit_file", {
        file_path: "/src/two_fer.py",
        old_string: "pass",
        new_string: "return 1",
      });
      assert.equal(r.isError, true);
      assert.match(r.content, /Did you mean \/pkg\/src\/two_fer\.py\? Call edit_file with that path\./);
      assert.match((await backend.read("/pkg/src/two_fer.py")).content ?? "", /pass/);
    });

    it("says nothing extra when nothing is close", async () => {
      assert.equal(await nearMissPath(backend, "/nothing/like/this.rs"), undefined);
      const r = await call(tools, "read_file", { file_path: "/nothing.rs" });
      assert.doesNotMatch(r.content, /Did you mean/);
    });
  });
}

const sandbox = makeSandbox(files);
after(sandbox.cleanup);
suite(
  "filesystem, node search",
  () => new FilesystemBackend({ rootDir: sandbox.root, virtualMode: true, ripgrepPath: null }),
);
suite("filesystem, ripgrep", () => new FilesystemBackend({ rootDir: sandbox.root, virtualMode: true }));
suite("state", () => new StateBackend(Object.fromEntries(Object.entries(files).map(([k, v]) => [`/${k}`, v]))));
