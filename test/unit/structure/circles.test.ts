import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import ts from "typescript";

// Circles between product files: each one so far closed through a type kept in the wrong file,
// and a circle makes a folder impossible to read (or move) on its own. The graph counts every
// import and export-from, type-only ones included, since a type in the wrong file is the cause.
// A circle here is a strongly connected component of more than one file (two files importing
// each other, or a longer ring), so one tangle counts once however many cycles run through it.
const root = path.resolve(import.meta.dirname, "../../..");
const productRoots = ["src", "webview-ui/src"];
/** The subagent's card shows a transcript, whose items include subagent cards: a circle by nature. */
const ALLOWED_CIRCLES = 1;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts"))
    .map((file) => path.join(dir, file));
}

/** A relative specifier as the bundler resolves it: the file itself, with .ts/.tsx, or the folder's index. */
function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ""));
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
  return candidates.find((file) => existsSync(file) && statSync(file).isFile() && /\.tsx?$/.test(file));
}

function importGraph(files: readonly string[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    // preProcessFile lists import, export-from, import() and import type alike.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const target = resolveImport(file, fileName);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Tarjan's strongly connected components of more than one file. */
function circles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

describe("import circles", () => {
  it("finds a circle through a type-only import and an index file", () => {
    const graph = new Map([
      ["a.ts", new Set(["b/index.ts"])],
      ["b/index.ts", new Set(["c.ts"])],
      ["c.ts", new Set(["a.ts"])],
      ["d.ts", new Set(["a.ts"])],
    ]);
    assert.deepEqual(circles(graph), [["a.ts", "b/index.ts", "c.ts"]]);
  });

  it(`product code has at most ${ALLOWED_CIRCLES} circle (the subagent card's)`, () => {
    const files = productRoots.flatMap((dir) => sourceFiles(path.join(root, dir)));
    const found = circles(importGraph(files));
    const shown = found.map((c) => c.map((file) => path.relative(root, file)).join(" ↔ "));
    console.log(`${found.length} circle(s) in product code${shown.length ? `:\n  ${shown.join("\n  ")}` : ""}`);
    assert.ok(
      found.length <= ALLOWED_CIRCLES,
      `at most ${ALLOWED_CIRCLES} allowed, found ${found.length}:\n${shown.join("\n")}`,
    );
  });
});
