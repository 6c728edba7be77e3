// The host-independent half of /review in VS Code: a finding as its comment thread, its fix as
// an edit of the file as it is now (or refused when the file changed under it), the edit as the
// smallest unique edit_file call, /review's argument, and Apply fix's stand-in model.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { ModelStreamEvent, ReviewFinding } from "../../../src/core";
import { applyTextEdit } from "../../../src/core/backends/textEdit";
import { editArgsFor, fixedText, staleFixMessage, type FixTarget } from "../../../src/host/codeReview/fixEdit";
import { findingThreadView, WITH_FIX, WITHOUT_FIX } from "../../../src/host/codeReview/findingThread";
import { fixApplyingModel } from "../../../src/host/codeReview/fixModel";
import { reviewTargetOf } from "../../../src/host/codeReview/reviewArgs";
import { partNotice, reviewSummary } from "../../../src/host/codeReview/reviewRun";

const FILE = [
  "function total(items) {",
  "  let sum = 0;",
  "  for (let i = 0; i <= items.length; i++) sum += items[i];",
  "  return sum;",
  "}",
  "",
].join("\n");
const finding: ReviewFinding = {
  file: "src/total.js",
  startLine: 3,
  endLine: 3,
  severity: "bug",
  title: "Off by one: reads past the end",
  why: "`i <= items.length` reads `items[items.length]`, which is `undefined`, so the sum is `NaN`.",
  fix: "  for (let i = 0; i < items.length; i++) sum += items[i];",
};
const target = (over: Partial<FixTarget> = {}): FixTarget => ({
  path: "/src/total.js",
  startLine: 3,
  endLine: 3,
  reviewed: "  for (let i = 0; i <= items.length; i++) sum += items[i];",
  replacement: finding.fix!,
  ...over,
});

/** What edit_file makes of the file with these arguments. */
function edited(before: string, args: { old_string: string; new_string: string }): string | undefined {
  return applyTextEdit(before, args.old_string, args.new_string, false, "/src/total.js").after;
}

describe("a finding as a comment thread", () => {
  it("spans its lines (0-based), says severity, title and why, and shows the fix as a diff of the reviewed lines", () => {
    const view = findingThreadView({ ...finding, endLine: 4 }, "a\nb");
    assert.equal(view.startLine, 2);
    assert.equal(view.endLine, 3);
    assert.equal(view.label, "Fathom Review: Bug");
    assert.equal(view.contextValue, WITH_FIX);
    assert.ok(view.body.startsWith("**Bug: Off by one: reads past the end**\n\n`i <= items.length`"), view.body);
    assert.ok(
      view.body.includes("```diff\n-a\n-b\n+  for (let i = 0; i < items.length; i++) sum += items[i];\n```"),
      view.body,
    );
  });

  it("offers Apply fix only with a fix, and a fix holding backticks cannot close its fence", () => {
    const { fix: _fix, ...noFix } = finding;
    const plain = findingThreadView(noFix, "x");
    assert.equal(plain.contextValue, WITHOUT_FIX);
    assert.doesNotMatch(plain.body, /Suggested fix/);
    const ticks = findingThreadView({ ...finding, fix: "const s = ```;" }, "x");
    assert.match(ticks.body, /````diff\n-x\n\+const s = ```;\n````/);
  });
});

describe("a fix as an edit of the file now", () => {
  it("replaces the reviewed lines, keeping the file's final newline", () => {
    const fixed = fixedText(FILE, target());
    assert.ok("after" in fixed);
    assert.equal(fixed.after, FILE.replace("i <= items", "i < items"));
  });

  it("finds the reviewed lines where they moved (lines added above), and matches a CRLF file", () => {
    const moved = "// header\n// more\n" + FILE;
    const fixed = fixedText(moved.replace(/\n/g, "\r\n"), target());
    assert.ok("after" in fixed);
    assert.equal(fixed.after, moved.replace("i <= items", "i < items"));
  });

  it("is refused with what to do when the reviewed lines are gone or no longer unique", () => {
    const changed = FILE.replace("i <= items.length", "i <= items.length - 1");
    assert.deepEqual(fixedText(changed, target()), { error: staleFixMessage(target()) });
    assert.match(staleFixMessage(target()), /^src\/total\.js changed since the review: line 3 .* Run \/review again/);
    const twice = FILE.replace("  return sum;", "  for (let i = 0; i <= items.length; i++) sum += items[i];");
    assert.ok("error" in fixedText(twice.replace("function", "// moved\nfunction"), target()));
  });

  it("a fix that deletes the lines takes their line breaks too", () => {
    const fixed = fixedText(FILE, target({ startLine: 2, endLine: 2, reviewed: "  let sum = 0;", replacement: "" }));
    assert.ok("after" in fixed);
    assert.equal(fixed.after, FILE.replace("  let sum = 0;\n", ""));
  });
});

describe("the fix as the smallest unique edit_file call", () => {
  it("is the changed line when it is unique, and edit_file's answer is the fixed file", () => {
    const after = FILE.replace("i <= items", "i < items");
    const args = editArgsFor("/src/total.js", FILE, after);
    assert.deepEqual(args, {
      file_path: "/src/total.js",
      old_string: "  for (let i = 0; i <= items.length; i++) sum += items[i];\n",
      new_string: "  for (let i = 0; i < items.length; i++) sum += items[i];\n",
    });
    assert.equal(edited(FILE, args as never), after);
  });

  it("widens by context until old_string occurs once, and a deletion or insertion still lands exactly", () => {
    const before = "x = 1\ny = 2\nx = 1\nz = 3\n";
    const after = "x = 1\ny = 2\nx = 10\nz = 3\n";
    const args = editArgsFor("/a.py", before, after);
    assert.ok(!("error" in args));
    assert.equal(args.old_string, "y = 2\nx = 1\nz = 3\n");
    assert.equal(edited(before, args), after);
    for (const next of ["x = 1\ny = 2\nz = 3\n", "x = 1\ny = 2\nx = 1\nw = 0\nz = 3\n"]) {
      const a = editArgsFor("/a.py", before, next);
      assert.ok(!("error" in a), JSON.stringify(a));
      assert.equal(edited(before, a), next);
    }
    assert.ok("error" in editArgsFor("/a.py", before, before));
  });
});

describe("/review's argument, in the CLI's words", () => {
  it("reads nothing, staged, a branch, --base, --pr; refuses the rest with the usage", () => {
    assert.deepEqual(reviewTargetOf(""), { kind: "uncommitted" });
    assert.deepEqual(reviewTargetOf("staged"), { kind: "staged" });
    assert.deepEqual(reviewTargetOf("--staged"), { kind: "staged" });
    assert.deepEqual(reviewTargetOf("main"), { kind: "base", ref: "main" });
    assert.deepEqual(reviewTargetOf("--base staged"), { kind: "base", ref: "staged" });
    assert.deepEqual(reviewTargetOf("--pr #12"), { kind: "pr", number: 12 });
    for (const bad of ["--pr x", "a b c", "--force", "main extra"])
      assert.match((reviewTargetOf(bad) as { error: string }).error, /Use \/review/, bad);
  });
});

describe("the review's summary and parts", () => {
  it("counts by severity, lists each place when asked (the conversation's copy), and says when it stopped", () => {
    const { fix: _fix, ...noFix } = finding;
    const nit = { ...noFix, severity: "nit" as const, title: "Name", startLine: 1, endLine: 2 };
    const text = reviewSummary(
      "the staged changes",
      {
        findings: [finding, nit],
        summaries: ["Mostly fine."],
        status: "incomplete",
        message: "Part 2 of 2 stopped early: limit",
      },
      true,
    );
    assert.match(text, /^\*\*Review of the staged changes: 2 findings \(1 bug, 1 nit\)\.\*\*/);
    assert.match(text, /1\. \*\*Bug\*\* `src\/total\.js:3`: Off by one: reads past the end \(fix suggested\)/);
    assert.match(text, /2\. \*\*Nit\*\* `src\/total\.js:1-2`: Name\n/);
    assert.match(text, /Mostly fine\.\n\nPart 2 of 2 stopped early: limit/);
    assert.equal(
      reviewSummary("x", { findings: [finding], summaries: ["Said already."], status: "reviewed" }, false),
      "**Review of x: 1 finding (1 bug).**",
    );
    assert.match(reviewSummary("x", { findings: [], summaries: [], status: "reviewed" }, false), /x: no findings/);
  });

  it("a part says how much of the context its diff takes", () => {
    const part = {
      index: 0,
      total: 2,
      files: ["a", "b"],
      changedLines: 120,
      diffChars: 16_000,
      diffTokens: 4_000,
      contextWindow: 128_000,
      contextShare: 4_000 / 128_000,
    };
    assert.equal(
      partNotice(part),
      "Reviewing part 1 of 2: 2 files, 120 changed lines. The diff takes about 4,000 tokens, 3% of the model's 128,000-token context.",
    );
  });
});

describe("Apply fix's stand-in model", () => {
  const collect = async (events: AsyncIterable<ModelStreamEvent>) => {
    const out: ModelStreamEvent[] = [];
    for await (const e of events) out.push(e);
    return out;
  };
  it("calls edit_file once with the fix, then says what came of it and tells who waits", async () => {
    const settled: boolean[] = [];
    const args = { file_path: "/src/total.js", old_string: "a\n", new_string: "b\n" };
    const model = fixApplyingModel(
      { provider: "openai", model: "gpt-x", contextWindow: 1000 },
      { id: "fix_1", args, title: "T", settled: (a) => settled.push(a) },
    );
    assert.equal(model.model, "gpt-x");
    const first = await collect(
      model.stream({ system: "", messages: [{ role: "user", content: "Apply the fix: T" }], tools: [] }),
    );
    const done = first.at(-1);
    assert.ok(done?.type === "done");
    assert.deepEqual(done.message.toolCalls, [{ id: "fix_1", name: "edit_file", arguments: JSON.stringify(args) }]);
    const ok = await collect(
      model.stream({
        system: "",
        messages: [{ role: "tool", toolCallId: "fix_1", toolName: "edit_file", content: "Edited." }],
        tools: [],
      }),
    );
    assert.deepEqual(ok[0], { type: "text_delta", text: 'Applied the fix for "T" to src/total.js.' });
    const no = await collect(
      model.stream({
        system: "",
        messages: [{ role: "tool", toolCallId: "fix_1", toolName: "edit_file", content: "Rejected.", isError: true }],
        tools: [],
      }),
    );
    assert.deepEqual(no[0], { type: "text_delta", text: 'The fix for "T" was not applied: Rejected.' });
    assert.deepEqual(settled, [true], "told once");
    // Sent back once more by a middleware after its answer: it answers again, never calls twice.
    const again = await collect(
      model.stream({
        system: "",
        messages: [
          { role: "assistant", content: "", toolCalls: [{ id: "fix_1", name: "edit_file", arguments: "{}" }] },
          { role: "tool", toolCallId: "fix_1", toolName: "edit_file", content: "Edited." },
          { role: "assistant", content: "Applied." },
          { role: "user", content: "Run the tests first." },
        ],
        tools: [],
      }),
    );
    assert.equal(again.at(-1)?.type === "done" && again.at(-1)?.type, "done");
    assert.ok(again.every((e) => e.type !== "tool_call_start"));
  });
});
