import { test } from "node:test";
import assert from "node:assert/strict";
import {
  describeDiagnostics, eolStyle, locateVirtualPath, newDiagnostics, parseProposalUri, proposalTitle, proposalUriParts,
  sameAsEditorText, stripBom, withEol,
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
  assert.equal(parts.path, "/src/a b.ts");
  assert.deepEqual(parseProposalUri(parts.query), { toolCallId: "call/1 x&y", side: "after" });
  assert.equal(parseProposalUri("side=sideways&id=x"), undefined);
  assert.equal(parseProposalUri("side=after"), undefined);
});

test("the title names the file, says it is Fathom's proposal and marks new files", () => {
  assert.equal(proposalTitle("/src/a.ts", false), "src/a.ts ↔ Fathom's proposal (editable)");
  assert.match(proposalTitle("/new.md", true), /\(new file\)/);
});

test("locateVirtualPath: one folder is the root; several are named by the first segment", () => {
  const one = [{ name: "app", fsPath: "/w/app" }];
  assert.deepEqual(locateVirtualPath("/src/a.ts", one), { folder: 0, relative: "src/a.ts" });
  const two = [{ name: "web", fsPath: "/w/web" }, { name: "api", fsPath: "/w/api" }];
  assert.deepEqual(locateVirtualPath("/api/src/a.ts", two), { folder: 1, relative: "src/a.ts" });
  const bad = locateVirtualPath("/other/a.ts", two);
  assert.ok("error" in bad && /\/web\/, \/api\//.test(bad.error));
  assert.ok("error" in locateVirtualPath("/a", []));
});

test("newDiagnostics compares by message, source and code, counting repeats, not positions", () => {
  const e = (message: string, line = 1) => ({ message, line, column: 1, source: "ts", code: "1" });
  const before = [e("x is not defined", 3), e("missing ;")];
  const after = [e("x is not defined", 9), e("missing ;"), e("missing ;", 4), e("y is not defined")];
  assert.deepEqual(newDiagnostics(before, after).map((d) => [d.message, d.line]), [["missing ;", 4], ["y is not defined", 1]]);
});

test("describeDiagnostics is short, positioned and capped", () => {
  const errors = Array.from({ length: 25 }, (_, i) => ({ message: `bad\n  thing ${i}`, line: i + 1, column: 2, source: "json" }));
  const text = describeDiagnostics("/a.json", errors, true);
  assert.match(text, /^New errors the editor reports in \/a\.json after this change:/);
  assert.match(text, /- line 1, column 2: bad thing 0 \(json\)/);
  assert.match(text, /… and 5 more/);
  assert.match(describeDiagnostics("/a.json", errors.slice(0, 1), false), /was not open before/);
});
