import { test } from "node:test";
import assert from "node:assert/strict";
import { applyTextEdits, TextLines, wordColumns } from "../../../src/core/codeIntel/textPositions";

test("lines and columns as an editor counts them: CRLF, CR and a BOM that is not part of line 1", () => {
  const lines = new TextLines("\uFEFFab\r\ncd\ref\n");
  assert.equal(lines.lineCount, 4);
  assert.deepEqual(
    [1, 2, 3, 4].map((l) => lines.line(l)),
    ["ab", "cd", "ef", ""],
  );
  assert.equal(lines.offset(1, 1), 1, "after the BOM");
  assert.equal(lines.offset(2, 3), 7, "the end of line 2 is a position");
  assert.equal(lines.offset(2, 4), undefined, "past it is not");
  assert.equal(lines.line(5), undefined);
});

test("edits made against one text, in any order; overlapping or misplaced ones are refused", () => {
  const text = "\uFEFFconst foo = 1;\r\nfoo + foo;\r\n";
  const edit = (line: number, column: number) => ({
    line,
    column,
    endLine: line,
    endColumn: column + 3,
    newText: "bar",
  });
  assert.deepEqual(applyTextEdits(text, [edit(2, 7), edit(1, 7), edit(2, 1)]), {
    text: "\uFEFFconst bar = 1;\r\nbar + bar;\r\n",
  });
  assert.match((applyTextEdits(text, [edit(9, 1)]) as { error: string }).error, /line 9.*not inside the file/);
  assert.match((applyTextEdits(text, [edit(2, 1), edit(2, 2)]) as { error: string }).error, /overlap/);
});

test("a word's columns are whole identifiers only", () => {
  assert.deepEqual(wordColumns("foo(foobar, _foo, foo)", "foo"), [1, 19]);
  assert.deepEqual(wordColumns("$foo foo$ foo", "foo"), [11]);
});
