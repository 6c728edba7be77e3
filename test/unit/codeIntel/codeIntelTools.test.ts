import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { codeIntelligenceMiddleware } from "../../../src/core/middleware/codeIntelligence";
import { secretFileMatcher } from "../../../src/core/trust/secretFiles";
import type { Tool, ToolResult } from "../../../src/core/tools/tool";
import { FakeIntel, type FakeIntelScript } from "./fakeIntel";

function workspace(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-intel-"));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

const FILES = {
  "src/greeter.ts": "export class Greeter {\n  greet(name: string) {\n    return `hi ${name}`;\n  }\n}\n",
  "src/main.ts": 'import { Greeter } from "./greeter";\nconst g = new Greeter();\ng.greet("x");\n',
  "hidden/x.ts": "const greet = 1;\n",
  ".fathomignore": "hidden/\n",
  ".env": "TOKEN=1\n",
};

function tools(script: FakeIntelScript, files: Record<string, string> = FILES) {
  const root = workspace(files);
  const intel = new FakeIntel(script);
  const backend = new FilesystemBackend({ rootDir: root });
  const mw = codeIntelligenceMiddleware({ intel, backend, isSecret: secretFileMatcher() });
  const byName = new Map(mw.tools!.map((t) => [t.name, t]));
  const call = (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const tool = byName.get(name) as Tool;
    const parsed = tool.schema.parse(args);
    return tool.run(parsed, {
      signal: new AbortController().signal,
      toolCallId: "c1",
      run: { workspaceRoot: root },
    } as never);
  };
  return { root, intel, call, mw };
}

test("the middleware offers the seven tools, lookups as read tools and rename_symbol as other", () => {
  const { mw } = tools({});
  assert.deepEqual(
    mw.tools!.map((t) => `${t.name}:${t.kind}`),
    [
      "find_definition:read",
      "find_references:read",
      "document_symbols:read",
      "workspace_symbols:read",
      "hover:read",
      "get_problems:read",
      "rename_symbol:other",
    ],
  );
});

test("find_references: grouped by file with each line, outside and unreadable files counted, not shown", async () => {
  const { call, intel } = tools({
    references: [
      { path: "/src/main.ts", line: 3, column: 3 },
      { path: "/src/greeter.ts", line: 2, column: 3 },
      { path: "/src/main.ts", line: 3, column: 3 },
      { path: "/hidden/x.ts", line: 1, column: 7 },
      { outside: "lib.dom.d.ts", line: 100, column: 1 },
    ],
  });
  const r = await call("find_references", { path: "/src/greeter.ts", line: 2, column: 3 });
  assert.equal(r.isError, undefined);
  assert.deepEqual(intel.asked[0], { method: "references", at: { path: "/src/greeter.ts", line: 2, column: 3 } });
  assert.equal(
    r.content,
    [
      "References to /src/greeter.ts:2:3 (greet(name: string) {): 2 places in 2 files",
      "/src/greeter.ts",
      "  2:3: greet(name: string) {",
      "/src/main.ts",
      '  3:3: g.greet("x");',
      "(1 place in 1 file you may not read without asking, not shown: /hidden/x.ts.)",
      "(1 place outside the workspace, not shown: lib.dom.d.ts. Only workspace files can be read.)",
    ].join("\n"),
  );
});

test("find_references is capped, and says how many more there are", async () => {
  const many = Array.from({ length: 130 }, (_, i) => ({ path: "/src/big.ts", line: i + 1, column: 1 }));
  const big = Array.from({ length: 130 }, (_, i) => `use${i}();`).join("\n");
  const { call } = tools({ references: many }, { ...FILES, "src/big.ts": big });
  const r = await call("find_references", { path: "/src/big.ts", line: 1, column: 1 });
  assert.match(r.content, /^References to .*: 100 places in \/src\/big\.ts/);
  assert.match(r.content, /\(30 more places not listed: the first 100 are shown\.\)/);
  assert.equal(r.details?.count, 100);
});

test("a symbol's name stands for its position: a declaration (Class.method) first, else its first use", async () => {
  const { call, intel } = tools({
    symbols: {
      "/src/greeter.ts": [
        {
          path: "/src/greeter.ts",
          name: "Greeter",
          kind: "class",
          line: 1,
          column: 14,
          endLine: 5,
          children: [{ path: "/src/greeter.ts", name: "greet", kind: "method", line: 2, column: 1, endLine: 4 }],
        },
      ],
    },
    definitions: [{ path: "/src/greeter.ts", line: 2, column: 3 }],
  });
  const r = await call("find_definition", { path: "/src/greeter.ts", symbol: "Greeter.greet" });
  // The server's position (column 1) is not on the name: the name is looked up in the declaration.
  assert.deepEqual(intel.asked.at(-1)?.at, { path: "/src/greeter.ts", line: 2, column: 3 });
  assert.match(r.content, /Used the declaration of `Greeter.greet` at line 2, column 3\./);

  await call("hover", { path: "/src/main.ts", symbol: "greet" });
  assert.deepEqual(intel.asked.at(-1)?.at, { path: "/src/main.ts", line: 3, column: 3 }, "first whole-word use");

  await call("hover", { path: "/src/main.ts", line: 2, symbol: "Greeter" });
  assert.deepEqual(intel.asked.at(-1)?.at, { path: "/src/main.ts", line: 2, column: 15 }, "on the given line");

  const missing = await call("hover", { path: "/src/main.ts", symbol: "nothere" });
  assert.equal(missing.isError, true);
  assert.match(missing.content, /`nothere` does not occur in \/src\/main\.ts\. Use workspace_symbols/);
  const neither = await call("hover", { path: "/src/main.ts", line: 2 });
  assert.match(neither.content, /Give the column/);
  const past = await call("hover", { path: "/src/main.ts", line: 2, column: 99 });
  assert.match(past.content, /column 99 is past its end/);
});

test("paths go through the backend's guard: outside, ignored and secret files are refused before the server is asked", async () => {
  const { call, intel, root } = tools({ references: [] });
  fs.symlinkSync(os.tmpdir(), path.join(root, "link"));
  for (const p of ["/../etc/passwd", "/link/x.ts", "/hidden/x.ts", "/.env", "~/x.ts"]) {
    const r = await call("find_references", { path: p, line: 1, column: 1 });
    assert.equal(r.isError, true, p);
  }
  const secret = await call("document_symbols", { path: "/.env" });
  assert.match(secret.content, /may hold secrets/);
  assert.deepEqual(intel.asked, [], "the language server was never asked");
});

test("document_symbols as a tree; workspace_symbols with places, outside ones counted; hover capped", async () => {
  const { call } = tools({
    symbols: {
      "/src/greeter.ts": [
        {
          path: "/src/greeter.ts",
          name: "Greeter",
          kind: "class",
          line: 1,
          column: 14,
          endLine: 5,
          children: [
            {
              path: "/src/greeter.ts",
              name: "greet",
              kind: "method",
              detail: "(name: string)",
              line: 2,
              column: 3,
              endLine: 4,
            },
          ],
        },
      ],
    },
    workspaceSymbols: [
      { path: "/src/greeter.ts", name: "Greeter", kind: "class", line: 1, column: 14 },
      { path: "/hidden/x.ts", name: "greet", kind: "variable", line: 1, column: 7 },
      { outside: "node.d.ts", name: "Greeting", kind: "interface", line: 9, column: 1 },
    ],
    hover: ["```ts\n(method) Greeter.greet(name: string): string\n```", "x".repeat(5000)],
  });
  assert.equal(
    (await call("document_symbols", { path: "src/greeter.ts" })).content,
    "Symbols in /src/greeter.ts (2):\nclass Greeter — lines 1-5\n  method greet (name: string) — lines 2-4",
  );
  assert.equal(
    (await call("workspace_symbols", { query: "Gree" })).content,
    [
      'Symbols matching "Gree":',
      "class Greeter — /src/greeter.ts:1:14",
      "(1 symbol in files you may not read without asking, not shown.)",
      "(1 place outside the workspace, not shown: node.d.ts. Only workspace files can be read.)",
    ].join("\n"),
  );
  const hover = await call("hover", { path: "/src/greeter.ts", line: 2, column: 3 });
  assert.match(
    hover.content,
    /^At \/src\/greeter\.ts:2:3 \(greet\(name: string\) \{\):\n```ts\n\(method\) Greeter\.greet/,
  );
  assert.match(hover.content, /\(cut at 4000 characters\)$/);
});

test("get_problems: errors then warnings, under a path, unreadable files left out, as the Problems chip writes them", async () => {
  const { call } = tools({
    problems: [
      { path: "/src/main.ts", line: 3, column: 1, severity: "warning", message: "unused", source: "ts", code: "6133" },
      { path: "/src/greeter.ts", line: 2, column: 3, severity: "error", message: "bad\ntype", source: "ts" },
      { path: "/hidden/x.ts", line: 1, column: 1, severity: "error", message: "hidden" },
      { path: "/other/y.ts", line: 1, column: 1, severity: "hint", message: "a hint" },
    ],
  });
  assert.equal(
    (await call("get_problems", {})).content,
    [
      "Problems in the workspace (2 errors, 1 warning):",
      "/src/greeter.ts:2:3 error (ts): bad type",
      "/src/main.ts:3:1 warning 6133 (ts): unused",
      "(1 in files you may not read without asking, not shown.)",
    ].join("\n"),
  );
  assert.match(
    (await call("get_problems", { path: "/src/main.ts" })).content,
    /^Problems in \/src\/main\.ts \(1 warning\):/,
  );
  assert.match((await call("get_problems", { path: "/docs" })).content, /^No errors or warnings in \/docs right now/);
});

test("a provider's failure is a result for the model, not a throw", async () => {
  const { call } = tools({ definitions: { error: "no provider for this language" } });
  const r = await call("find_definition", { path: "/src/main.ts", line: 1, column: 10 });
  assert.equal(r.isError, true);
  assert.equal(r.content, "The fake language server could not find definition: no provider for this language");
});
