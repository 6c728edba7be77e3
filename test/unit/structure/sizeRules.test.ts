// The size limits of eslint.config.mjs are rules, not habits: these cases prove the config still
// rejects a file and a function over them in product code, counts code lines only, and leaves tests alone.
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { ESLint } from "eslint";

const root = path.resolve(import.meta.dirname, "../../..");
const eslint = new ESLint({ cwd: root });

async function sizeErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .map((m) => m.ruleId ?? "")
    .filter((id) => id === "max-lines" || id === "max-lines-per-function");
}

const statements = (n: number, indent = "") =>
  Array.from({ length: n }, (_, i) => `${indent}export const v${i} = ${i};`).join("\n");
const functionOf = (n: number) =>
  `export function long(): number {\n  let x = 0;\n${Array.from({ length: n - 4 }, () => "  x += 1;").join("\n")}\n  return x;\n}\n`;

describe("size rules", () => {
  it("a product file over 450 code lines is refused; at 450 it is not", async () => {
    assert.deepEqual(await sizeErrors("src/core/probe.ts", statements(451) + "\n"), ["max-lines"]);
    assert.deepEqual(await sizeErrors("src/core/probe.ts", statements(450) + "\n"), []);
  });

  it("comments and blank lines do not count", async () => {
    const commented = statements(440) + "\n" + Array.from({ length: 100 }, (_, i) => `// why ${i}\n`).join("\n");
    assert.deepEqual(await sizeErrors("webview-ui/src/probe.tsx", commented), []);
  });

  it("a function over 200 code lines is refused, in the webview too", async () => {
    assert.deepEqual(await sizeErrors("src/host/probe.ts", functionOf(201)), ["max-lines-per-function"]);
    assert.deepEqual(await sizeErrors("webview-ui/src/probe.tsx", functionOf(201)), ["max-lines-per-function"]);
    assert.deepEqual(await sizeErrors("src/cli/probe.ts", functionOf(200)), []);
  });

  it("tests are not held to product sizes", async () => {
    assert.deepEqual(await sizeErrors("test/unit/probe.test.ts", statements(600) + "\n" + functionOf(300)), []);
  });
});
