// Issue 41: the same code intelligence for a Python workspace, from a real pyright-langserver
// (Fathom's devDependency) the run starts in the OS sandbox where it runs. One server per file.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { isAnswerError, type Answer } from "../../../src/core/codeIntel/codeIntelligence";
import type { LspCodeIntelligence } from "../../../src/core/codeIntel/lsp/lspCodeIntelligence";
import type { CommandSandbox } from "../../../src/core/executor/sandbox";
import { alive, makeWorkspace, startIntel } from "./lspWorkspace";

const root = makeWorkspace({
  "pyproject.toml": `[project]\nname = "shop"\nversion = "0.1.0"\n`,
  "shop/__init__.py": "",
  "shop/prices.py": `def total(prices: list[float]) -> float:\n    """Adds the prices up."""\n    return sum(prices)\n\n\nclass Cart:\n    def value(self) -> float:\n        return total([1.0, 2.0])\n`,
  "shop/main.py": `from shop.prices import total\n\nanswer: str = total([3.0])\nprint(total([4.0]), answer)\n`,
});
let intel: LspCodeIntelligence;
let sandbox: CommandSandbox | undefined;
const log: string[] = [];

before(() => {
  ({ intel, sandbox } = startIntel(root, { log }));
});
after(async () => {
  await intel.stop();
  await sandbox?.dispose();
  rmSync(root, { recursive: true, force: true });
});

function value<T>(answer: Answer<T>): T {
  if (isAnswerError(answer)) assert.fail(answer.error);
  return answer;
}

test("pyright is chosen for a Python workspace", () => {
  assert.match(log.join("\n"), /pyright-langserver .*started at the first use/);
});

test("references and definition across modules", async () => {
  const refs = value(await intel.references({ path: "/shop/prices.py", line: 1, column: 5 }));
  assert.deepEqual(refs.map((r) => `${r.path}:${r.line}:${r.column}`).sort(), [
    "/shop/main.py:1:25",
    "/shop/main.py:3:15",
    "/shop/main.py:4:7",
    "/shop/prices.py:1:5",
    "/shop/prices.py:8:16",
  ]);
  const def = value(await intel.definitions({ path: "/shop/main.py", line: 4, column: 7 }));
  assert.deepEqual(
    def.map((d) => `${d.path}:${d.line}:${d.column}`),
    ["/shop/prices.py:1:5"],
  );
});

test("hover and document symbols", async () => {
  const hover = value(await intel.hover({ path: "/shop/main.py", line: 4, column: 7 })).join("\n");
  assert.match(hover, /total\(prices: list\[float\]\) -> float/);
  assert.match(hover, /Adds the prices up/);
  const symbols = value(await intel.documentSymbols("/shop/prices.py"));
  assert.deepEqual(
    symbols.map((s) => `${s.kind} ${s.name}`),
    ["function total", "class Cart"],
  );
});

test("rename edits in both files", async () => {
  const edits = value(await intel.rename({ path: "/shop/prices.py", line: 1, column: 5 }, "grand_total"));
  const byFile = Object.fromEntries(edits.files.map((f) => [f.path, f.edits.length]));
  assert.deepEqual(byFile, { "/shop/prices.py": 2, "/shop/main.py": 3 });
});

test("problems: the planted type error", async () => {
  const problems = value(await intel.problems());
  const errors = problems.filter((p) => p.severity === "error");
  assert.ok(
    errors.some((p) => p.path === "/shop/main.py" && p.line === 3),
    JSON.stringify(problems),
  );
});

test("stopped: no process left", async () => {
  const running = intel.processes();
  assert.ok(running.length > 0);
  await intel.stop();
  assert.deepEqual(alive(running), []);
});
