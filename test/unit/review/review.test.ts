import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, it } from "node:test";
import { parseGitDiff } from "../../../src/core/commitMessage/fileDiffs";
import { DiffIndex } from "../../../src/core/review/diffLines";
import { findingFromArgs, ReviewFindingSchema } from "../../../src/core/review/finding";
import { reviewChunks } from "../../../src/core/review/reviewChunks";
import { readReviewDiff } from "../../../src/core/review/reviewSource";
import { reviewSection } from "../../../src/core/review/reviewSteering";
import { runReview } from "../../../src/core/review/runReview";
import { FakeModel } from "../../support/fakeModel";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, encoding: "utf8" });
}

/** A repository with one commit of `src/calc.ts`, then `after` staged over it. */
function repoWithStagedChange(before: string, after: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "fathom-review-"));
  dirs.push(dir);
  git(dir, "init", "-q", "-b", "main");
  git(dir, "config", "user.email", "t@example.com");
  git(dir, "config", "user.name", "T");
  mkdirSync(path.join(dir, "src"));
  writeFileSync(path.join(dir, "src/calc.ts"), before);
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "first");
  writeFileSync(path.join(dir, "src/calc.ts"), after);
  git(dir, "add", ".");
  return dir;
}

const BEFORE =
  "export function total(xs: number[]): number {\n  let sum = 0;\n  for (const x of xs) sum += x;\n  return sum;\n}\n";
const AFTER =
  "export function total(xs: number[]): number {\n  let sum = 0;\n  for (let i = 1; i < xs.length; i++) sum += xs[i];\n  return sum;\n}\n";

describe("the review finding schema", () => {
  it("takes a finding with a range and a fix, and keeps the model's names apart from the public ones", () => {
    const read = findingFromArgs({
      file: "/src/calc.ts",
      line: 3,
      end_line: 3,
      severity: "bug",
      title: "Skips the first element",
      why: "The loop starts at 1.",
      fix: "  for (const x of xs) sum += x;\n",
    });
    assert.ok("finding" in read);
    assert.deepEqual(read.finding, {
      file: "src/calc.ts",
      startLine: 3,
      endLine: 3,
      severity: "bug",
      title: "Skips the first element",
      why: "The loop starts at 1.",
      fix: "  for (const x of xs) sum += x;",
    });
    assert.ok(ReviewFindingSchema.safeParse(read.finding).success);
  });

  it("refuses a range that ends before it starts, a fix too long, and says which field to correct", () => {
    const backwards = findingFromArgs({ file: "a.ts", line: 5, end_line: 2, severity: "nit", title: "t", why: "w" });
    assert.ok("error" in backwards);
    assert.match(backwards.error, /end_line/);
    assert.match(backwards.error, /call report_finding again/);
    const long = findingFromArgs({
      file: "a.ts",
      line: 1,
      severity: "risk",
      title: "t",
      why: "w",
      fix: "x\n".repeat(60) + "x",
    });
    assert.ok("error" in long);
    assert.match(long.error, /fix: a fix is at most 40 lines/);
    assert.equal(
      ReviewFindingSchema.safeParse({ file: "a", startLine: 1, endLine: 1, severity: "blocker", title: "t", why: "w" })
        .success,
      false,
    );
  });
});

describe("where a finding may go", () => {
  const files = parseGitDiff(
    [
      "diff --git a/src/a.ts b/src/a.ts",
      "--- a/src/a.ts",
      "+++ b/src/a.ts",
      "@@ -10,3 +10,4 @@ function f() {",
      " one",
      "-two",
      "+two2",
      "+three",
      " four",
      "@@ -40,2 +41,2 @@",
      " x",
      "-y",
      "+z",
    ].join("\n"),
  );
  const index = new DiffIndex(files);

  it("takes lines the diff shows and refuses others, other files and ranges across hunks, saying why", () => {
    assert.equal(index.refusal({ file: "src/a.ts", startLine: 11, endLine: 13 }), undefined);
    assert.equal(index.refusal({ file: "src/a.ts", startLine: 42, endLine: 42 }), undefined);
    assert.match(
      index.refusal({ file: "src/a.ts", startLine: 20, endLine: 20 })!,
      /not in the diff.*lines 10-13, 41-42/,
    );
    assert.match(index.refusal({ file: "src/a.ts", startLine: 12, endLine: 41 })!, /within one hunk/);
    assert.match(index.refusal({ file: "../etc/passwd", startLine: 1, endLine: 1 })!, /not a changed file.*src\/a\.ts/);
    assert.equal(index.newText("src/a.ts", 11, 12), "two2\nthree");
  });
});

describe("parts of a large diff", () => {
  it("cuts a 2,000-line diff into parts within the budget, numbering every line, and skips a binary file with the reason", () => {
    const lines = Array.from(
      { length: 2000 },
      (_, i) => `+const value${i} = compute(${i}); // a line of ordinary length`,
    );
    const diff = [
      "diff --git a/big.ts b/big.ts",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/big.ts",
      "@@ -0,0 +1,2000 @@",
      ...lines,
      "diff --git a/logo.png b/logo.png",
      "Binary files a/logo.png and b/logo.png differ",
    ].join("\n");
    const plan = reviewChunks(parseGitDiff(diff), { chunkChars: 30_000 });
    assert.ok(plan.chunks.length >= 3, `parts: ${plan.chunks.length}`);
    for (const chunk of plan.chunks) assert.ok(chunk.text.length <= 30_000, `a part of ${chunk.text.length}`);
    assert.equal(
      plan.chunks.reduce((n, c) => n + c.changedLines, 0),
      2000,
    );
    assert.match(plan.chunks[1]!.text, /^=== big\.ts \(added, \+2000 -0\) \(continued\)/);
    assert.match(plan.chunks.at(-1)!.text, /^\s+2000 \+const value1999/m);
    assert.deepEqual(plan.skipped, [{ path: "logo.png", reason: "binary: no lines to review" }]);
  });
});

describe("the repository's review notes", () => {
  it("takes the section of AGENTS.md whose heading names review, up to the next heading as high", () => {
    const md =
      "# Project\nIntro\n## Code review\nCheck SQL for injection.\n### Detail\nMore.\n## Build\nnpm run build\n";
    assert.deepEqual(reviewSection(md), {
      heading: "Code review",
      text: "Check SQL for injection.\n### Detail\nMore.",
    });
    assert.equal(reviewSection("# Nothing here\n"), undefined);
  });
});

describe("runReview", () => {
  it("runs a read-only task over the staged diff: findings come back checked, misplaced ones go back to the model, nothing is written", async () => {
    const dir = repoWithStagedChange(BEFORE, AFTER);
    mkdirSync(path.join(dir, ".github"));
    writeFileSync(path.join(dir, ".github/fathom-review.md"), "Loops over arrays must visit every element.\n");
    const diff = await readReviewDiff(dir, { kind: "staged" });
    assert.ok(!("error" in diff), JSON.stringify(diff));
    const model = new FakeModel([
      {
        toolCalls: [
          { name: "read_file", arguments: { file_path: "/src/calc.ts" } },
          { name: "read_file", arguments: { file_path: "/../outside.txt" } },
          {
            name: "report_finding",
            arguments: { file: "src/calc.ts", line: 30, severity: "bug", title: "Off the diff", why: "w" },
          },
        ],
      },
      {
        toolCalls: [
          {
            name: "report_finding",
            arguments: {
              file: "src/calc.ts",
              line: 3,
              severity: "bug",
              title: "The first element is skipped",
              why: "The loop starts at index 1, so total([5]) is 0.",
              fix: "  for (const x of xs) sum += x;",
            },
          },
          { name: "write_file", arguments: { file_path: "/src/calc.ts", content: "broken" } },
        ],
      },
      { text: "One bug: the loop skips the first element." },
    ]);
    const seen: string[] = [];
    const result = await runReview({
      model,
      root: diff.root,
      files: diff.files,
      label: diff.label,
      onFinding: (f) => seen.push(f.title),
    });
    assert.equal(result.status, "reviewed");
    assert.deepEqual(seen, ["The first element is skipped"]);
    assert.deepEqual(result.findings, [
      {
        file: "src/calc.ts",
        startLine: 3,
        endLine: 3,
        severity: "bug",
        title: "The first element is skipped",
        why: "The loop starts at index 1, so total([5]) is 0.",
        fix: "  for (const x of xs) sum += x;",
      },
    ]);
    assert.deepEqual(result.summaries, ["One bug: the loop skips the first element."]);
    assert.equal(result.parts.length, 1);
    assert.ok(result.parts[0]!.contextShare > 0 && result.parts[0]!.contextShare < 0.01);

    const first = model.requests[0]!;
    assert.ok(first.toolNames.includes("report_finding") && first.toolNames.includes("read_file"));
    for (const name of ["write_file", "edit_file", "execute", "web_fetch"])
      assert.ok(!first.toolNames.includes(name), name);
    const input = first.messages[0]!.content;
    assert.match(input, /Review the staged changes/);
    assert.match(input, /<review-notes>\nLoops over arrays must visit every element\.\n<\/review-notes>/);
    assert.match(input, /^\s+3 \+\s+for \(let i = 1/m);
    const results = JSON.stringify(model.requests[1]!.messages);
    assert.match(results, /Line 30 of src\/calc\.ts is not in the diff/);
    assert.match(results, /Path '\/\.\.\/outside\.txt' contains '\.\.', which is not allowed/);
    const last = JSON.stringify(model.requests[2]!.messages);
    assert.match(last, /no tool named \\"write_file\\"/);
    assert.equal(readFileSync(path.join(dir, "src/calc.ts"), "utf8"), AFTER);
  });

  it("says there is nothing to review when every file is skipped", async () => {
    const files = parseGitDiff("diff --git a/x.bin b/x.bin\nBinary files a/x.bin and b/x.bin differ\n");
    const result = await runReview({ model: new FakeModel([]), root: os.tmpdir(), files });
    assert.equal(result.status, "nothing_to_review");
    assert.deepEqual(result.skipped, [{ path: "x.bin", reason: "binary: no lines to review" }]);
  });
});

describe("readReviewDiff", () => {
  it("refuses a base that is not a commit, with what to give instead", async () => {
    const dir = repoWithStagedChange(BEFORE, AFTER);
    const bad = await readReviewDiff(dir, { kind: "base", ref: "no-such-branch" });
    assert.ok("error" in bad);
    assert.match(bad.error, /"no-such-branch" is not a commit/);
    const option = await readReviewDiff(dir, { kind: "base", ref: "--output=/tmp/x" });
    assert.ok("error" in option);
  });

  it("reads a branch against its base, and refuses a diff larger than the limit", async () => {
    const dir = repoWithStagedChange(BEFORE, AFTER);
    git(dir, "commit", "-q", "-m", "second");
    const diff = await readReviewDiff(dir, { kind: "base", ref: "HEAD~1" });
    assert.ok(!("error" in diff));
    assert.equal(diff.label, "HEAD against HEAD~1");
    assert.deepEqual(
      diff.files.map((f) => f.path),
      ["src/calc.ts"],
    );
    const big = await readReviewDiff(dir, { kind: "base", ref: "HEAD~1" }, { maxBytes: 100 });
    assert.ok("error" in big);
    assert.match(big.error, /too large to review/);
  });
});
