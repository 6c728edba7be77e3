// The commit-message diff: git's diff read per file, and the budget that keeps what the model
// sees within a size whatever the change (a huge file, thousands of files, binary files,
// lockfiles, secrets).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseGitDiff, addedFileDiff, type FileDiff } from "../../../src/core/commitMessage/fileDiffs";
import { budgetDiff, commitDiffBudget, fairShares } from "../../../src/core/commitMessage/diffBudget";
import { secretFileMatcher } from "../../../src/core/trust/secretFiles";

/** A modified file whose diff has `hunks` hunks of `lines` changed lines each. */
function modified(
  path: string,
  hunks: number,
  lines: number,
  text = (h: number, i: number) => `line ${h}.${i} of ${path}`,
): string {
  const body = Array.from({ length: hunks }, (_, h) =>
    [
      `@@ -${h * 100 + 1},${lines} +${h * 100 + 1},${lines} @@ function f${h}()`,
      ...Array.from({ length: lines }, (_, i) => `-old ${text(h, i)}\n+new ${text(h, i)}`),
    ].join("\n"),
  );
  return [
    `diff --git a/${path} b/${path}`,
    "index 1111111..2222222 100644",
    `--- a/${path}`,
    `+++ b/${path}`,
    ...body,
  ].join("\n");
}

const RENAME_AND_MORE = `diff --git a/src/old.ts b/src/new.ts
similarity index 90%
rename from src/old.ts
rename to src/new.ts
index 1111111..2222222 100644
--- a/src/old.ts
+++ b/src/new.ts
@@ -1,3 +1,3 @@
 export function a() {
-  return 1;
+  return 2;
 }
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 3333333..0000000
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-bye
-now
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/logo.png b/logo.png
new file mode 100644
index 0000000..4444444
Binary files /dev/null and b/logo.png differ
diff --git a/notes.md b/notes.md
index 5555555..6666666 100644
--- a/notes.md
+++ b/notes.md
@@ -1 +1 @@
-a
\\ No newline at end of file
+b
\\ No newline at end of file
`;

describe("reading git's diff", () => {
  it("names each file with what happened to it and its line counts", () => {
    const files = parseGitDiff(RENAME_AND_MORE);
    assert.deepEqual(
      files.map((f) => [f.path, f.oldPath, f.status, f.binary, f.added, f.removed, f.hunks.length]),
      [
        ["src/new.ts", "src/old.ts", "renamed", false, 1, 1, 1],
        ["gone.txt", undefined, "deleted", false, 0, 2, 1],
        ["run.sh", undefined, "mode changed", false, 0, 0, 0],
        ["logo.png", undefined, "added", true, 0, 0, 0],
        ["notes.md", undefined, "modified", false, 1, 1, 1],
      ],
    );
    assert.equal(files[4]!.hunks[0], "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file");
  });

  it("reads paths without prefixes, with mnemonic prefixes, quoted, and with colour codes", () => {
    const noPrefix =
      "diff --git src/a b.ts src/a b.ts\nindex 1..2 100644\n--- src/a b.ts\t\n+++ src/a b.ts\t\n@@ -1 +1 @@\n-x\n+y\n";
    assert.equal(parseGitDiff(noPrefix)[0]!.path, "src/a b.ts");
    const mnemonic =
      "diff --git c/a/b.ts i/a/b.ts\nnew file mode 100644\n--- /dev/null\n+++ i/a/b.ts\n@@ -0,0 +1 @@\n+x\n";
    assert.equal(parseGitDiff(mnemonic)[0]!.path, "a/b.ts");
    const quoted =
      'diff --git "a/\\303\\274n\\303\\257 \\"q\\".txt" "b/\\303\\274n\\303\\257 \\"q\\".txt"\nnew file mode 100644\nindex 0..1\nBinary files /dev/null and "b/\\303\\274n\\303\\257 \\"q\\".txt" differ\n';
    assert.deepEqual(
      parseGitDiff(quoted).map((f) => [f.path, f.binary]),
      [['ünï "q".txt', true]],
    );
    const coloured =
      "\x1b[1mdiff --git a/x.ts b/x.ts\x1b[m\n\x1b[1m--- a/x.ts\x1b[m\n\x1b[1m+++ b/x.ts\x1b[m\n\x1b[36m@@ -1 +1 @@\x1b[m\n\x1b[31m-a\x1b[m\n\x1b[32m+b\x1b[m\n";
    assert.deepEqual(
      parseGitDiff(coloured).map((f) => [f.path, f.added, f.removed]),
      [["x.ts", 1, 1]],
    );
  });

  it("skips a binary patch's data and reads the next file", () => {
    const text =
      "diff --git a/x.bin b/x.bin\nindex 1..2 100644\nGIT binary patch\nliteral 5\nMcmZ?wbN%Ng\n\nliteral 0\nHcmV?d00001\n\n" +
      modified("after.ts", 1, 1);
    assert.deepEqual(
      parseGitDiff(text).map((f) => [f.path, f.binary, f.added]),
      [
        ["x.bin", true, 0],
        ["after.ts", false, 1],
      ],
    );
  });

  it("makes an untracked file a diff that adds it", () => {
    assert.deepEqual(addedFileDiff("new.ts", "a\nb\n"), {
      path: "new.ts",
      status: "added",
      binary: false,
      added: 2,
      removed: 0,
      hunks: ["@@ -0,0 +1,2 @@\n+a\n+b"],
    });
    assert.equal(addedFileDiff("x", "last").hunks[0], "@@ -0,0 +1,1 @@\n+last\n\\ No newline at end of file");
    assert.equal(addedFileDiff("img.png", undefined).binary, true);
  });
});

describe("the commit-diff budget", () => {
  const budget = 4_000;

  it("sends a diff that fits whole, each file under a line naming it", () => {
    const out = budgetDiff(parseGitDiff(RENAME_AND_MORE), { budgetChars: budget });
    assert.equal(out.summarized, false);
    assert.deepEqual([out.files, out.added, out.removed], [5, 2, 4]);
    assert.match(
      out.text,
      /^=== src\/new\.ts \(renamed from src\/old\.ts, \+1 -1\)\n@@ -1,3 \+1,3 @@\n export function a\(\) \{\n- {2}return 1;/,
    );
    assert.match(out.text, /^=== logo\.png \(added; binary\)$/m);
    assert.match(out.text, /^=== run\.sh \(mode changed, \+0 -0\)$/m);
    assert.doesNotMatch(out.text, /Binary files/);
  });

  it("cuts a huge diff per file to fit, naming every file with its counts, and says what it left out", () => {
    const huge = parseGitDiff(
      [modified("big.ts", 40, 200), modified("small.ts", 1, 2), modified("medium.ts", 3, 20)].join("\n"),
    );
    const out = budgetDiff(huge, { budgetChars: budget });
    assert.equal(out.summarized, true);
    assert.ok(out.text.length <= budget, `${out.text.length} > ${budget}`);
    assert.match(out.text, /^=== big\.ts \(modified, \+8000 -8000\)$/m);
    // The small file whole, next to the huge one; the huge one cut at a line, its rest counted.
    assert.match(
      out.text,
      /=== small\.ts \(modified, \+2 -2\)\n@@ -1,2 \+1,2 @@ function f0\(\)\n-old line 0\.0 of small\.ts\n\+new line 0\.0 of small\.ts\n-old line 0\.1 of small\.ts\n\+new line 0\.1 of small\.ts/,
    );
    assert.match(out.text, /=== big\.ts[^\n]*\n@@ -1,200 \+1,200 @@ function f0\(\)\n-old line 0\.0 of big\.ts\n/);
    const note = /\[not shown: \+(\d+) -(\d+) lines, 39 more hunks\]/.exec(out.text);
    assert.ok(note, out.text);
    const shownBig = out.text.split("=== ").find((b) => b.startsWith("big.ts"))!;
    const shownAdded = shownBig.split("\n").filter((l) => l.startsWith("+")).length;
    assert.equal(Number(note[1]) + shownAdded, 8000, "shown and not shown add up to the file's lines");
  });

  it("lists many files by name within the budget, then one line for the rest", () => {
    const many = parseGitDiff(
      Array.from({ length: 3_000 }, (_, i) => modified(`src/module${i}/file${i}.ts`, 1, 3)).join("\n"),
    );
    const out = budgetDiff(many, { budgetChars: budget });
    assert.ok(out.text.length <= budget);
    assert.equal(out.files, 3_000);
    const lines = out.text.split("\n");
    assert.match(lines[0]!, /^=== src\/module0\/file0\.ts \(modified, \+3 -3\)$/);
    const rest = /^=== … and (\d+) more files \(\+(\d+) -(\d+)\)$/.exec(lines.at(-1)!);
    assert.ok(rest, lines.at(-1));
    assert.equal(Number(rest[1]) + lines.length - 1, 3_000);
    assert.equal(Number(rest[2]), Number(rest[1]) * 3);
    assert.ok(!lines.some((l) => l.startsWith("@@")), "no room for hunks: names only");
  });

  it("names a lockfile and a generated file by their counts only, even in a small diff", () => {
    const files = parseGitDiff(
      [modified("package-lock.json", 2, 3), modified("web/app.min.js", 1, 1), modified("src/app.ts", 1, 1)].join("\n"),
    );
    files.push(addedFileDiff("gen/api.ts", "// @generated by protoc, do not edit\nexport const x = 1;\n"));
    const out = budgetDiff(files, { budgetChars: budget });
    assert.match(out.text, /^=== package-lock\.json \(modified, \+6 -6; a lockfile: content left out\)$/m);
    assert.match(out.text, /^=== web\/app\.min\.js \(modified, \+1 -1; generated: content left out\)$/m);
    assert.match(out.text, /^=== gen\/api\.ts \(added, \+2 -0; generated: content left out\)$/m);
    assert.doesNotMatch(out.text, /package-lock\.json of|protoc/);
    assert.match(out.text, /\+new line 0\.0 of src\/app\.ts/);
  });

  it("never sends a secret file's content, staged or untracked, renamed from one or not", () => {
    const files = [
      ...parseGitDiff(modified(".env", 1, 1, () => "API_TOKEN=hunter2")),
      addedFileDiff("config/prod.pem", "-----BEGIN KEY-----\nsecret\n"),
    ];
    const out = budgetDiff(files, { budgetChars: budget, secret: secretFileMatcher([]) });
    assert.match(out.text, /^=== \.env \(modified, \+1 -1; a secret file \(\.env\): its content is not sent\)$/m);
    assert.match(
      out.text,
      /^=== config\/prod\.pem \(added, \+2 -0; a secret file \(\*\.pem\): its content is not sent\)$/m,
    );
    assert.doesNotMatch(out.text, /hunter2|BEGIN KEY/);
    const custom = budgetDiff(parseGitDiff(modified("deploy/vault.yml", 1, 1, () => "password: x")), {
      budgetChars: budget,
      secret: secretFileMatcher(["vault.yml"]),
    });
    assert.doesNotMatch(custom.text, /password/);
  });

  it("shares what is left fairly, smallest first", () => {
    assert.deepEqual(fairShares([10, 1_000, 50], 300), [10, 240, 50]);
    assert.deepEqual(fairShares([500, 500], 300), [150, 150]);
    assert.deepEqual(fairShares([5], -10), [0]);
  });

  it("scales the budget with the model's context window, within bounds", () => {
    assert.equal(commitDiffBudget(2_048), 4_000);
    assert.equal(commitDiffBudget(8_192), 12_288);
    assert.equal(commitDiffBudget(1_000_000), 48_000);
  });

  it("keeps every budget it is given, whatever mix of files", () => {
    const mixed: FileDiff[] = parseGitDiff(
      [modified("a.ts", 5, 300), modified("b.ts", 1, 1), modified("yarn.lock", 10, 100)].join("\n"),
    );
    for (let i = 0; i < 200; i++) mixed.push(addedFileDiff(`docs/page${i}.md`, "x\n".repeat(i)));
    for (const chars of [4_000, 6_500, 12_288, 48_000]) {
      const out = budgetDiff(mixed, { budgetChars: chars });
      assert.ok(out.text.length <= chars, `${out.text.length} > ${chars}`);
      assert.equal(out.summarized, true);
    }
  });
});
