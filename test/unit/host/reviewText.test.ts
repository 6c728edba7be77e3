import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { minimatch } from "minimatch";
import {
  describeDiagnostics,
  eolStyle,
  locateVirtualPath,
  newDiagnostics,
  parseProposalUri,
  REAL_LANGUAGE_OF,
  REVIEW_FOLDER,
  proposalTitle,
  proposalUriParts,
  sameAsEditorText,
  stripBom,
  withEol,
} from "../../../src/host/review/reviewText";

test("eolStyle tells LF, CRLF, mixed and none apart", () => {
  assert.equal(eolStyle("a\nb\n"), "lf");
  assert.equal(eolStyle("a\r\nb\r\n"), "crlf");
  assert.equal(eolStyle("a\r\nb\n"), "mixed");
  assert.equal(eolStyle("a\rb"), "mixed");
  assert.equal(eolStyle("abc"), "none");
});

test("sameAsEditorText ignores the BOM and line-ending normalisation only", () => {
  assert.equal(sameAsEditorText("\uFEFFa\r\nb\n", "a\nb\n", "\n"), true);
  assert.equal(sameAsEditorText("a\r\nb\r\n", "a\r\nb\r\n", "\r\n"), true);
  assert.equal(sameAsEditorText("a\nb\n", "a\nB\n", "\n"), false);
  assert.equal(withEol("a\r\nb\rc\n", "\r\n"), "a\r\nb\r\nc\r\n");
  assert.equal(stripBom("\uFEFFx"), "x");
});

test("proposal URIs keep the file's path and carry id and side in the query, odd ids included", () => {
  const parts = proposalUriParts("call/1 x&y", "after", "src/a b.ts");
  assert.equal(parts.path, `${REVIEW_FOLDER}/src/a b.ts`);
  assert.deepEqual(parseProposalUri(parts.query), { toolCallId: "call/1 x&y", side: "after" });
  assert.equal(parseProposalUri("side=sideways&id=x"), undefined);
  assert.equal(parseProposalUri("side=after"), undefined);
});

test("both sides' paths keep the file's under the review folder", () => {
  for (const side of ["before", "after"] as const) {
    const parts = proposalUriParts("c1", side, "/src/a b.ts");
    assert.equal(parts.path, `${REVIEW_FOLDER}/src/a b.ts`);
    assert.deepEqual(parseProposalUri(parts.query), { toolCallId: "c1", side });
  }
});

test("package.json gives JS/TS files of a diff grammar-only languages, hidden from the picker", () => {
  const repo = path.resolve(import.meta.dirname, "../../..");
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8")) as {
    contributes: {
      languages: { id: string; aliases?: string[]; filenamePatterns?: string[]; extensions?: string[] }[];
      grammars: { language?: string; scopeName: string; path: string; injectTo?: string[] }[];
    };
  };
  const shipped = fs
    .readFileSync(path.join(repo, ".vscodeignore"), "utf8")
    .split("\n")
    .filter((l) => l.startsWith("!"))
    .map((l) => l.slice(1));
  const ours = pkg.contributes.languages.filter((l) => l.id.startsWith("fathom-review-"));
  assert.deepEqual(
    ours.map((l) => l.id).sort(),
    Object.keys(REAL_LANGUAGE_OF).sort(),
    "each has a real language to become",
  );
  const languagesOf = (p: string) =>
    ours.filter((l) => l.filenamePatterns?.some((g) => minimatch(p, g, { nocase: true }))).map((l) => l.id);
  const cases: [string, string, string][] = [
    ["src/a.js", "javascript", "source.js"],
    ["b.MJS", "javascript", "source.js"],
    ["c.cjs", "javascript", "source.js"],
    ["ui/App.jsx", "javascriptreact", "source.js.jsx"],
    ["a.ts", "typescript", "source.ts"],
    ["x/y/b.mts", "typescript", "source.ts"],
    ["c.cts", "typescript", "source.ts"],
    ["ui/View.tsx", "typescriptreact", "source.tsx"],
  ];
  const injection = pkg.contributes.grammars.find((g) =>
    g.injectTo?.some((s) => s.startsWith("source.fathom-review.")),
  );
  assert.ok(injection, "JSDoc highlighting is injected into the borrowed grammars too");
  for (const [file, real, realScope] of cases) {
    for (const side of ["before", "after"] as const) {
      const ids = languagesOf(proposalUriParts("c", side, file).path);
      assert.equal(ids.length, 1, `${side} ${file}: one language`);
      assert.equal(REAL_LANGUAGE_OF[ids[0]!], real, `${side} ${file} stands for ${real}`);
      const grammar = pkg.contributes.grammars.find((g) => g.language === ids[0])!;
      const body = JSON.parse(fs.readFileSync(path.join(repo, grammar.path), "utf8")) as {
        scopeName: string;
        patterns: unknown;
      };
      assert.equal(body.scopeName, grammar.scopeName);
      assert.deepEqual(body.patterns, [{ include: realScope }], `${ids[0]} borrows ${realScope}`);
      assert.ok(injection.injectTo!.includes(grammar.scopeName), `${ids[0]} gets JSDoc`);
      assert.ok(
        shipped.some((g) => minimatch(grammar.path.replace(/^\.\//, ""), g)),
        `${grammar.path} is in the vsix`,
      );
    }
    assert.deepEqual(languagesOf(`/${file}`), [], `${file}: files elsewhere are not touched`);
  }
  assert.deepEqual(languagesOf(proposalUriParts("c", "after", "main.py").path), [], "other languages keep theirs");
  for (const l of ours) {
    assert.deepEqual(l.aliases, [], `${l.id} has no name, so the language picker does not list it`);
    assert.equal(l.extensions, undefined, `${l.id} claims no file extension`);
    assert.ok(
      l.filenamePatterns!.every((g) => g.startsWith(`${REVIEW_FOLDER}/`)),
      `${l.id} applies under ${REVIEW_FOLDER} only`,
    );
  }
});

test("the title names the file, says it is Fathom's proposal and marks new files", () => {
  assert.equal(proposalTitle("/src/a.ts", false), "src/a.ts ↔ Fathom's proposal (editable)");
  assert.match(proposalTitle("/new.md", true), /\(new file\)/);
});

test("locateVirtualPath: one folder is the root; several are named by the first segment", () => {
  const one = [{ name: "app", fsPath: "/w/app" }];
  assert.deepEqual(locateVirtualPath("/src/a.ts", one), { folder: 0, relative: "src/a.ts" });
  const two = [
    { name: "web", fsPath: "/w/web" },
    { name: "api", fsPath: "/w/api" },
  ];
  assert.deepEqual(locateVirtualPath("/api/src/a.ts", two), { folder: 1, relative: "src/a.ts" });
  const bad = locateVirtualPath("/other/a.ts", two);
  assert.ok("error" in bad && /\/web\/, \/api\//.test(bad.error));
  assert.ok("error" in locateVirtualPath("/a", []));
});

test("newDiagnostics compares by message, source and code, counting repeats, not positions", () => {
  const e = (message: string, line = 1) => ({ message, line, column: 1, source: "ts", code: "1" });
  const before = [e("x is not defined", 3), e("missing ;")];
  const after = [e("x is not defined", 9), e("missing ;"), e("missing ;", 4), e("y is not defined")];
  assert.deepEqual(
    newDiagnostics(before, after).map((d) => [d.message, d.line]),
    [
      ["missing ;", 4],
      ["y is not defined", 1],
    ],
  );
});

test("describeDiagnostics is short, positioned and capped", () => {
  const errors = Array.from({ length: 25 }, (_, i) => ({
    message: `bad\n  thing ${i}`,
    line: i + 1,
    column: 2,
    source: "json",
  }));
  const text = describeDiagnostics("/a.json", errors, true);
  assert.match(text, /^New errors the editor reports in \/a\.json after this change:/);
  assert.match(text, /- line 1, column 2: bad thing 0 \(json\)/);
  assert.match(text, /… and 5 more/);
  assert.match(describeDiagnostics("/a.json", errors.slice(0, 1), false), /was not open before/);
});
