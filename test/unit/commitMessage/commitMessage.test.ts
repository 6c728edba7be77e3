// The commit-message request and answer: the prompt's style examples, the cleaning of what a
// model answers, and the one streamed request (no tools) with its every way of ending.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { ModelError, type ChatModel, type ModelRequest, type ModelStreamEvent } from "../../../src/core/model/types";
import { cleanCommitMessage } from "../../../src/core/commitMessage/cleanMessage";
import { commitMessagePrompt, usesConventionalCommits } from "../../../src/core/commitMessage/commitPrompt";
import { budgetDiff } from "../../../src/core/commitMessage/diffBudget";
import { addedFileDiff, parseGitDiff } from "../../../src/core/commitMessage/fileDiffs";
import { MAX_MESSAGE_CHARS, writeCommitMessage } from "../../../src/core/commitMessage/writeCommitMessage";
import { FakeModel } from "../../support/fakeModel";

/** Answers `text` in pieces of `size` characters, as a server streams it. */
function chunkedModel(text: string, size: number): ChatModel & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    provider: "scripted",
    model: "chunked",
    contextWindow: 8_192,
    requests,
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      requests.push(request);
      for (let i = 0; i < text.length; i += size) yield { type: "text_delta", text: text.slice(i, i + size) };
      yield {
        type: "done",
        message: { role: "assistant", content: text },
        usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
        stopReason: "end_turn",
      };
    },
  };
}

const DIFF =
  "diff --git a/src/slugify.js b/src/slugify.js\n--- a/src/slugify.js\n+++ b/src/slugify.js\n@@ -1,2 +1,2 @@\n-  return s.toLowerCase();\n+  return s.trim().toLowerCase();\n";
const files = parseGitDiff(DIFF);
const diff = budgetDiff(files, { budgetChars: 4_000 });

describe("the commit-message prompt", () => {
  it("gives the repository's last 10 subjects, newest first, as the style to follow", () => {
    const subjects = Array.from({ length: 14 }, (_, i) => `Subject number ${i}\n\nbody that is not sent ${i}`);
    const { system, user } = commitMessagePrompt({ diff, scope: "staged", subjects });
    const listed = user
      .slice(0, user.indexOf("<diff>"))
      .split("\n")
      .filter((l) => l.startsWith("- "));
    assert.deepEqual(
      listed,
      Array.from({ length: 10 }, (_, i) => `- Subject number ${i}`),
    );
    assert.doesNotMatch(user, /body that is not sent|Subject number 10/);
    assert.match(user, /10 most recent commit subjects, newest first/);
    assert.match(user, /for the staged changes: 1 file, \+1 -1 lines/);
    assert.match(
      user,
      /<diff>\n=== src\/slugify\.js \(modified, \+1 -1\)\n@@ -1,2 \+1,2 @@\n- {2}return s\.toLowerCase\(\);/,
    );
    assert.match(system, /at most 72 characters/);
    assert.match(system, /blank line and a body/);
    assert.match(system, /do not start the subject with "feat:"/);
  });

  it("asks for Conventional Commits only when most examples use them", () => {
    const conventional = ["feat(cli): add commit-message", "fix: keep line endings", "docs: README", "Merge branch x"];
    assert.equal(usesConventionalCommits(conventional), true);
    assert.equal(usesConventionalCommits(["Add a thing", "fix: one", "Fix another"]), false);
    assert.equal(usesConventionalCommits(["feat: only one example"]), false);
    assert.match(
      commitMessagePrompt({ diff, scope: "staged", subjects: conventional }).system,
      /uses Conventional Commits/,
    );
  });

  it("says when there are no commits to learn from, and when everything (not the staged part) is described", () => {
    const { system, user } = commitMessagePrompt({ diff: { ...diff, summarized: true }, scope: "all", subjects: [] });
    assert.match(system, /no commits yet/);
    assert.match(user, /The repository has no commits yet\./);
    assert.match(user, /all uncommitted changes \(nothing is staged\)/);
    assert.match(user, /too large to show whole/);
  });
});

describe("cleaning the answer", () => {
  const cases: [string, string][] = [
    ["Fix the slug", "Fix the slug"],
    ["```\nFix the slug\n\nTrim first.\n```", "Fix the slug\n\nTrim first."],
    ["```text\nFix the slug\n```\nThis message says what changed.", "Fix the slug"],
    ["Here is the commit message:\n\n```git\nFix the slug\n```", "Fix the slug"],
    ["Commit message: Fix the slug", "Fix the slug"],
    ["**Commit message:**\nFix the slug\nTrim before lowering.", "Fix the slug\n\nTrim before lowering."],
    ['"Fix the slug"', "Fix the slug"],
    ["`Fix the slug`", "Fix the slug"],
    ["**Fix the slug**\n\nBody.", "Fix the slug\n\nBody."],
    ["  \n\nFix the slug   \n\n\n\nBody line.  \n", "Fix the slug\n\nBody line."],
    ['Fix "quoted" words', 'Fix "quoted" words'],
    ["Fix the slug\r\n\r\nWindows body", "Fix the slug\n\nWindows body"],
  ];
  for (const [answer, expected] of cases) {
    it(`${JSON.stringify(answer)} → ${JSON.stringify(expected)}`, () =>
      assert.equal(cleanCommitMessage(answer), expected));
  }

  it("while streaming, never shows a fence, a label or an opening quote", () => {
    assert.equal(cleanCommitMessage("``", { partial: true }), "");
    assert.equal(cleanCommitMessage("```tex", { partial: true }), "");
    assert.equal(cleanCommitMessage("```text\nFix the", { partial: true }), "Fix the");
    assert.equal(cleanCommitMessage("```\nFix the slug\n``", { partial: true }), "Fix the slug");
    assert.equal(cleanCommitMessage("Commit message:", { partial: true }), "");
    assert.equal(cleanCommitMessage('"Fix the', { partial: true }), "Fix the");
  });
});

describe("writing the message", () => {
  it("streams the cleaned message, in one request with no tools", async () => {
    const model = chunkedModel("```\nTrim slugs before lowering them\n\nA leading space made an empty slug.\n```", 3);
    const seen: string[] = [];
    const result = await writeCommitMessage({
      model,
      files,
      scope: "staged",
      subjects: ["Add slugify"],
      onText: (t) => seen.push(t),
    });
    assert.deepEqual(result, {
      ok: true,
      message: "Trim slugs before lowering them\n\nA leading space made an empty slug.",
      summarized: false,
    });
    assert.equal(model.requests.length, 1);
    assert.deepEqual(model.requests[0]!.tools, []);
    const sent = model.requests[0]!.messages[0]!;
    assert.equal(sent.role, "user");
    assert.match(sent.content, /- Add slugify/);
    assert.match(sent.content, /\+ {2}return s\.trim\(\)\.toLowerCase\(\);/);
    assert.ok(seen.includes("Trim slugs bef"), "the box grows as the text arrives");
    assert.ok(
      seen.every((t) => !t.includes("`")),
      JSON.stringify(seen),
    );
    assert.equal(seen.at(-1), "Trim slugs before lowering them\n\nA leading space made an empty slug.");
  });

  it("keeps a secret file's content out of the request", async () => {
    const model = new FakeModel([{ text: "Rotate the token" }]);
    await writeCommitMessage({
      model,
      files: [addedFileDiff("deploy/token.txt", "TOKEN=abc123\n")],
      scope: "all",
      subjects: [],
      secretFiles: ["token.txt"],
    });
    assert.doesNotMatch(model.requests[0]!.messages[0]!.content, /abc123/);
    assert.match(model.requests[0]!.messages[0]!.content, /deploy\/token\.txt \(added, \+1 -0; a secret file/);
  });

  it("ends with a value for a cancel, a model error, an empty answer, a runaway answer and no changes", async () => {
    const controller = new AbortController();
    const hanging = writeCommitMessage({
      model: new FakeModel([{ hang: true, text: "Fix" }]),
      files,
      scope: "staged",
      subjects: [],
      signal: controller.signal,
      onText: () => controller.abort(),
    });
    assert.deepEqual(await hanging, {
      ok: false,
      reason: "cancelled",
      message: "Cancelled: no commit message was written.",
    });

    const refused = await writeCommitMessage({
      model: new FakeModel([
        { error: new ModelError("auth", "The API key was refused (401). Set OPENAI_API_KEY.", 401) },
      ]),
      files,
      scope: "staged",
      subjects: [],
    });
    assert.deepEqual(refused, {
      ok: false,
      reason: "model",
      message: "The API key was refused (401). Set OPENAI_API_KEY.",
      kind: "auth",
    });

    const empty = await writeCommitMessage({
      model: new FakeModel([{ text: "```\n```" }]),
      files,
      scope: "staged",
      subjects: [],
    });
    assert.equal(empty.ok === false && empty.reason, "empty");

    const looping = await writeCommitMessage({
      model: new FakeModel([{ text: "Fix it. ".repeat(MAX_MESSAGE_CHARS) }]),
      files,
      scope: "staged",
      subjects: [],
    });
    assert.equal(looping.ok === false && looping.reason, "runaway");
    assert.match(looping.ok ? "" : looping.message, /ran past 5,000 characters/);

    const nothing = await writeCommitMessage({ model: new FakeModel([]), files: [], scope: "staged", subjects: [] });
    assert.equal(nothing.ok === false && nothing.reason, "no_changes");
  });
});
