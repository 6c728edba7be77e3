// /review as a task of the chat (without VS Code): the diff read from a real git repository, the
// review's cards and summary in the transcript with its findings' links, the findings handed to
// the editor's comments; then Apply fix as a turn of the same task: one edit card through the
// gate, written and checkpointed only on Approve, with no request to the model.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import type { AssistantItem, ToolItem } from "../../../src/protocol";
import type { ReviewedFindings } from "../../../src/host/codeReview/findingComments";
import { editArgsFor, fixedText } from "../../../src/host/codeReview/fixEdit";
import { makeKit, until } from "./sessionKit";

const BUGGY = "  return items.length > 0 ? items[items.length] : undefined;";
const FIXED = "  return items.length > 0 ? items[items.length - 1] : undefined;";
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", ...args], { cwd, encoding: "utf8" });

function repository(): string {
  const root = mkdtempSync(path.join(tmpdir(), "fathom-review-ws-"));
  writeFileSync(path.join(root, "last.js"), `export function last(items) {\n${FIXED}\n}\n`);
  git(root, "init", "-q", "-b", "main");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "last");
  writeFileSync(path.join(root, "last.js"), `export function last(items) {\n${BUGGY}\n}\n`);
  return root;
}

describe("/review as a task of the chat", () => {
  it("reviews the uncommitted change, shows the summary's findings, hands them to the editor, and Apply fix asks before writing", async () => {
    const root = repository();
    const shown: ReviewedFindings[] = [];
    const kit = makeKit(
      [
        {
          toolCalls: [
            {
              name: "report_finding",
              arguments: {
                file: "last.js",
                line: 2,
                severity: "bug",
                title: "Off by one",
                why: "Reads past the end.",
                fix: FIXED,
              },
            },
          ],
        },
        { text: "One bug." },
      ],
      {
        root,
        checkpoints: true,
        env: { review: { dir: () => root, virtualPath: (_r, f) => `/${f}`, show: (r) => void shown.push(r) } },
      },
    );
    await kit.session.send("/review", undefined, { review: { kind: "uncommitted" } });
    await kit.session.whenIdle();
    assert.equal(kit.session.state.status, "completed");
    assert.equal(kit.model.requests.length, 2);
    assert.ok(kit.model.requests[0]!.toolNames.includes("report_finding"));
    assert.ok(!kit.model.requests[0]!.toolNames.includes("edit_file"), "nothing that writes is offered");
    const items = kit.session.state.items;
    assert.ok(items.some((i) => i.kind === "notice" && /^Reviewing 1 file, 2 changed lines\./.test(i.text)));
    const summary = items.at(-1) as AssistantItem;
    assert.equal(summary.text, "**Review of the uncommitted changes: 1 finding (1 bug).**");
    assert.deepEqual(summary.review?.findings, [
      { place: "last.js:2", line: 2, severity: "bug", title: "Off by one", fix: true, path: "/last.js" },
    ]);
    // The conversation keeps the list, for the task's next messages.
    assert.ok(kit.session.state.taskId);
    assert.equal(shown.length, 1);
    assert.equal(shown[0]!.taskId, kit.session.state.taskId);
    assert.equal(shown[0]!.findings[0]!.reviewed, BUGGY);

    // Apply fix: the edit as the task's next turn, waiting on the gate; nothing written yet.
    const before = readFileSync(path.join(root, "last.js"), "utf8");
    const fixed = fixedText(before, {
      path: "/last.js",
      startLine: 2,
      endLine: 2,
      reviewed: BUGGY,
      replacement: FIXED,
    });
    assert.ok("after" in fixed);
    const args = editArgsFor("/last.js", fixed.before, fixed.after);
    assert.ok(!("error" in args));
    const settled: boolean[] = [];
    assert.equal(
      await kit.session.applyFix({ id: "fix_t", args, title: "Off by one", settled: (a) => settled.push(a) }),
      undefined,
    );
    await until(() => kit.gate.waiting.has("fix_t"));
    const card = kit.session.state.items.find((i): i is ToolItem => i.kind === "tool" && i.toolName === "edit_file")!;
    assert.equal(card.status, "awaiting_approval");
    assert.equal(readFileSync(path.join(root, "last.js"), "utf8"), before);
    assert.match((await kit.session.applyFix({ id: "fix_u", args, title: "x" })) ?? "", /running/, "one at a time");
    kit.session.approve(card.id);
    await kit.session.whenIdle();
    assert.equal(readFileSync(path.join(root, "last.js"), "utf8"), fixed.after);
    assert.deepEqual(settled, [true]);
    assert.equal(kit.model.requests.length, 2, "the fix sent nothing to the model");
    const answer = kit.session.state.items.at(-1) as AssistantItem;
    assert.equal(answer.text, 'Applied the fix for "Off by one" to last.js.');
    const journal = await kit.checkpoints!.checkpoints(kit.session.state.taskId!);
    assert.ok(
      journal.some((c) => c.files.includes("/last.js")),
      "the write is checkpointed",
    );
  });

  it("a target git cannot read fails the run with why, and nothing reaches the model", async () => {
    const root = repository();
    const kit = makeKit([], {
      root,
      env: { review: { dir: () => root, virtualPath: () => undefined, show: () => undefined } },
    });
    await kit.session.send("/review nope", undefined, { review: { kind: "base", ref: "nope" } });
    await kit.session.whenIdle();
    assert.equal(kit.session.state.status, "failed");
    assert.match(kit.session.state.banner?.message ?? "", /"nope" is not a commit/);
    assert.equal(kit.model.requests.length, 0);
  });
});
