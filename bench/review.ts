// `/review` of a 2,000-line diff (issue 42): into how many parts it is cut for models of several
// context windows, the largest part's share of the context (what the context meter shows), and
// how long cutting and numbering the diff takes (median of 20).
import { parseGitDiff } from "../src/core/commitMessage/fileDiffs";
import { reviewChunkChars, reviewChunks } from "../src/core/review/reviewChunks";

const RUNS = 20;
const FILES = 20;
const LINES_PER_FILE = 100;

/** 20 files of 100 changed lines each (half replaced, half added): 2,000 changed lines. */
function twoThousandLineDiff(): string {
  const out: string[] = [];
  for (let f = 0; f < FILES; f++) {
    out.push(
      `diff --git a/src/module${f}.ts b/src/module${f}.ts`,
      `--- a/src/module${f}.ts`,
      `+++ b/src/module${f}.ts`,
    );
    out.push(`@@ -1,${LINES_PER_FILE / 2} +1,${LINES_PER_FILE / 2} @@`);
    for (let i = 0; i < LINES_PER_FILE / 2; i++) out.push(`-  const old${i} = computeSomething(input, ${i});`);
    for (let i = 0; i < LINES_PER_FILE / 2; i++)
      out.push(`+  const value${i} = computeSomethingElse(input, ${i}, options);`);
  }
  return out.join("\n");
}

export function runReviewBench(): void {
  console.log("\n## /review of a 2,000-line diff: parts per context window");
  const started = performance.now();
  const files = parseGitDiff(twoThousandLineDiff());
  const parseMs = performance.now() - started;
  const changed = files.reduce((n, f) => n + f.added + f.removed, 0);
  console.log(
    `  ${files.length} files, ${changed.toLocaleString("en-US")} changed lines (parsed in ${parseMs.toFixed(1)} ms)`,
  );
  for (const contextWindow of [8_192, 32_768, 128_000, 200_000]) {
    const chunkChars = reviewChunkChars(contextWindow);
    const times: number[] = [];
    let plan = reviewChunks(files, { chunkChars });
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      plan = reviewChunks(files, { chunkChars });
      times.push(performance.now() - t);
    }
    const largest = Math.max(...plan.chunks.map((c) => c.text.length));
    const share = Math.ceil(largest / 4) / contextWindow;
    const median = [...times].sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
    console.log(
      `  context ${contextWindow.toLocaleString("en-US").padStart(7)} tokens: ${String(plan.chunks.length).padStart(2)} parts, largest ${Math.ceil(
        largest / 4,
      )
        .toLocaleString("en-US")
        .padStart(
          6,
        )} tokens (${(share * 100).toFixed(0).padStart(2)}% of the context), ${plan.skipped.length} files left out, cut in ${median.toFixed(2)} ms`,
    );
  }
}
