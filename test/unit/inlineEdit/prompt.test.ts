// The inline edit's prompt (the file's path and language, the selection marked in up to 30 lines
// of context each side, the instruction) and the edit's arguments read while they stream.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  INLINE_EDIT_SYSTEM_PROMPT,
  InlineEditRequestSchema,
  inlineEditUserPrompt,
  selectionTooLarge,
} from "../../../src/core/inlineEdit/prompt";
import { selectLines, type SelectedLines } from "../../../src/core/inlineEdit/selectedLines";
import { inlineEditPreview, streamedNumber, streamedString } from "../../../src/core/inlineEdit/streamedArgs";

function sel(text: string, start: number, end: number): SelectedLines {
  const s = selectLines(text, start, end);
  if ("error" in s) throw new Error(s.error);
  return s;
}

describe("inline edit prompt", () => {
  const lines = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
  const text = lines.join("\n") + "\n";

  it("marks the selection inside 30 lines of context each side, names what is not shown, and ends with the instruction", () => {
    const prompt = inlineEditUserPrompt(sel(text, 50, 52), {
      path: "/src/a.ts",
      startLine: 50,
      endLine: 52,
      instruction: "  number them  ",
      language: "typescript",
    });
    assert.ok(prompt.startsWith("File: /src/a.ts (typescript)\n"));
    assert.match(prompt, /\(19 earlier lines not shown\)\n<before_selection>\nline 20\n/);
    assert.match(
      prompt,
      /line 49\n<\/before_selection>\n<selection lines="50-52">\nline 50\nline 51\nline 52\n<\/selection>\n<after_selection>\nline 53\n/,
    );
    assert.match(prompt, /line 82\n<\/after_selection>\n\(19 later lines not shown\)/);
    assert.doesNotMatch(prompt, /line 19\n|line 83\n/);
    assert.ok(prompt.endsWith("Instruction: number them\n\nReply with only the new text for lines 50–52."));
    assert.match(INLINE_EDIT_SYSTEM_PROMPT, /only the new text for the selected lines/);
    assert.match(INLINE_EDIT_SYSTEM_PROMPT, /no Markdown code fences/);
  });

  it("says where the file starts and ends, and keeps long context to a few thousand characters (the nearest lines)", () => {
    const prompt = inlineEditUserPrompt(sel("a\nb\nc\n", 1, 1), {
      path: "/x.txt",
      startLine: 1,
      endLine: 1,
      instruction: "caps",
    });
    assert.match(
      prompt,
      /^File: \/x\.txt\n\n\(start of file\)\n<before_selection>\n<\/before_selection>\n<selection lines="1-1">\na\n<\/selection>\n<after_selection>\nb\nc\n\n<\/after_selection>\n\(end of file\)/,
    );
    assert.match(prompt, /new text for line 1\.$/);
    const wide = Array.from({ length: 40 }, (_, i) => `${i}`.padEnd(1000, "x")).join("\n");
    const capped = inlineEditUserPrompt(sel(wide, 35, 35), {
      path: "/w.txt",
      startLine: 35,
      endLine: 35,
      instruction: "x",
    });
    assert.match(capped, /\(29 earlier lines not shown\)\n<before_selection>\n29x/);
  });

  it("refuses a selection too large for one answer; the request is checked at the boundary", () => {
    assert.equal(selectionTooLarge(sel(text, 1, 100)), undefined);
    assert.match(
      selectionTooLarge(sel("x\n".repeat(1500), 1, 1200)) ?? "",
      /too large for Edit Selection \(1200 lines/,
    );
    assert.equal(
      InlineEditRequestSchema.safeParse({ path: "/a", startLine: 3, endLine: 2, instruction: "x" }).success,
      false,
    );
    assert.equal(
      InlineEditRequestSchema.safeParse({ path: "/a", startLine: 1, endLine: 2, instruction: "   " }).success,
      false,
    );
    assert.equal(
      InlineEditRequestSchema.safeParse({ path: "/a", startLine: 1, endLine: 2, instruction: "go" }).success,
      true,
    );
  });
});

describe("streamed arguments", () => {
  it("reads a string as far as it has come, an escape cut in two waiting for its end, and a number once whole", () => {
    assert.deepEqual(streamedString('{"content": "ab\\ncd', "content"), { value: "ab\ncd", complete: false });
    assert.deepEqual(streamedString('{"content": "ab\\', "content"), { value: "ab", complete: false });
    assert.deepEqual(streamedString('{"content": "\\u00e9\\u00', "content"), { value: "é", complete: false });
    assert.deepEqual(streamedString('{"content": "done", "x": 1}', "content"), { value: "done", complete: true });
    assert.equal(streamedString('{"other": "see \\"content\\": \\"no\\""', "content"), undefined);
    assert.equal(streamedNumber('{"start_line": 12', "start_line"), undefined);
    assert.equal(streamedNumber('{"start_line": 12,', "start_line"), 12);
  });

  it("previews an edit_selection call streaming in: the file with the lines replaced so far, once there is something to show", () => {
    const file = "a\nb\nc\nd\n";
    const head = '{"file_path":"/t.txt","start_line":2,"end_line":3,"file_version":"x","answer":"';
    assert.equal(inlineEditPreview(head, file), undefined);
    assert.equal(inlineEditPreview(`${head}B\\nC`, file), "a\nB\nC\nd\n");
    assert.equal(
      inlineEditPreview(`${head}\`\`\`\\nB\\nC\\n\`\`\`"}`, file),
      "a\nB\nC\nd\n",
      "the whole answer, cleaned",
    );
    assert.equal(inlineEditPreview(`${head}Cannot: no"}`, file), undefined, "a refused answer shows nothing new");
    assert.equal(
      inlineEditPreview('{"file_path":"/t.txt","start_line":9,"end_line":9,"answer":"x', file),
      undefined,
      "lines not in the file",
    );
  });
});
