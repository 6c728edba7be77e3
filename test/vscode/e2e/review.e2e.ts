// /review through the real UI (code-server + Chromium): the workspace is a git repository with a
// bug planted in an uncommitted change; `/review` in the chat runs the review as a task (the
// scripted model reports one finding with a fix), the finding becomes a "Fathom Review" comment
// on the right line of the editor, its "Apply fix" proposes the fix as an edit with an Approve
// card (and the diff), and Approve writes exactly the fix to disk; a finding without a fix offers
// only Dismiss.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { openChat, send, until, withScriptedModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Person", "-c", "user.email=person@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });

const FIXED = "    .replace(/^-|-$/g, '');";
const BUGGY = "    .replace(/^-/, ''); // trims only the leading dash";
const SAMPLE_BUG = ".replace(/^-/, ''); // bug on purpose: a trailing \"-\" is kept";

/** The sample as a repository whose committed slugify is right, and an uncommitted change that breaks it. */
function prepare(dir: string): void {
  const file = path.join(dir, "src/slugify.js");
  fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(`    ${SAMPLE_BUG}`, FIXED));
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "Slugify titles");
  fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(FIXED, BUGGY));
}

export const tests: E2ETest[] = [
  {
    name: "Review: /review puts the finding on its line in the editor; Apply fix opens an Approve card; Approve writes the fix",
    timeoutMs: 300_000,
    prepare,
    async run(ctx) {
      const { page } = ctx;
      const file = path.join(ctx.session.workspaceDir, "src/slugify.js");
      const buggyText = fs.readFileSync(file, "utf8");
      const line = buggyText.split("\n").indexOf(BUGGY) + 1;
      assert.ok(line > 0, "the planted bug is in the file");
      await withScriptedModel(ctx, async (server) => {
        server.push(
          {
            toolCalls: [
              {
                id: "f1",
                name: "report_finding",
                arguments: {
                  file: "src/slugify.js",
                  line,
                  severity: "bug",
                  title: "A trailing dash is kept",
                  why: "Only the leading `-` is trimmed, so `Hello World!` becomes `hello-world-`.",
                  fix: FIXED,
                },
              },
              {
                id: "f2",
                name: "report_finding",
                arguments: {
                  file: "src/slugify.js",
                  line: line - 1,
                  severity: "nit",
                  title: "Name the pattern",
                  why: "A named constant would say what the pattern keeps.",
                },
              },
            ],
          },
          { text: "One bug in slugify: the trailing dash.", chunkDelayMs: 10 },
        );
        const chat = await openChat(page);
        await send(chat, "/review");
        // The review runs as a task: its call's card, the context the diff takes, the summary with the finding's link.
        await chat.getByText(/^Reviewing 1 file, 2 changed lines\. The diff takes about/).waitFor({ timeout: 60_000 });
        await chat.getByText("One bug in slugify: the trailing dash.").waitFor({ timeout: 60_000 });
        await chat
          .getByText(/^Review of the uncommitted changes: 2 findings \(1 bug, 1 nit\)\./)
          .waitFor({ state: "visible", timeout: 30_000 });
        const findings = chat.getByRole("list", { name: "Findings" });
        const link = findings.getByRole("button", { name: `src/slugify.js:${line}` });
        await link.waitFor({ state: "visible", timeout: 10_000 });
        assert.equal(server.requests.length, 2);
        const sent = JSON.stringify(server.requests[0]!.body);
        assert.ok(sent.includes("report_finding"), "the review offers report_finding");
        assert.ok(!sent.includes('"name":"edit_file"'), "the review offers no edit tool");
        assert.ok(sent.includes("trims only the leading dash"), "the model got the diff");
        await ctx.screenshot("e2e-review-1-summary");

        // The link opens the file at the finding; its comment thread sits right under that line.
        await link.click();
        await page
          .locator(".tabs-container .tab.active")
          .filter({ hasText: "slugify.js" })
          .waitFor({ timeout: 15_000 });
        const thread = page.locator(".review-widget").filter({ hasText: "A trailing dash is kept" });
        await thread.waitFor({ state: "visible", timeout: 30_000 });
        await thread.getByText("Fathom Review: Bug").first().waitFor({ state: "visible", timeout: 10_000 });
        const bugLine = page.locator(".monaco-editor .view-line").filter({ hasText: "trims only the leading dash" });
        const lineBox = (await bugLine.boundingBox())!;
        const threadBox = (await thread.boundingBox())!;
        assert.ok(
          threadBox.y >= lineBox.y + lineBox.height - 2 && threadBox.y <= lineBox.y + 2 * lineBox.height + 2,
          `the thread is right under line ${line} (line at y=${lineBox.y}, thread at y=${threadBox.y})`,
        );
        await ctx.screenshot("e2e-review-2-comment");

        // Apply fix: an edit proposed as any agent edit, waiting on its Approve card; nothing written yet.
        await thread.hover();
        await thread.getByRole("button", { name: "Apply fix" }).click();
        const card = chat.getByRole("region", { name: "Proposed change to /src/slugify.js" });
        await card.getByRole("button", { name: "Approve" }).waitFor({ state: "visible", timeout: 30_000 });
        await page.locator(".editor-group-container .monaco-diff-editor").first().waitFor({ timeout: 30_000 });
        assert.equal(fs.readFileSync(file, "utf8"), buggyText, "nothing is written before Approve");
        await ctx.screenshot("e2e-review-3-proposed");

        await card.getByRole("button", { name: "Approve" }).click();
        await until(
          "the fix on disk",
          async () => fs.readFileSync(file, "utf8") === buggyText.replace(BUGGY, FIXED),
          30_000,
        );
        await chat
          .getByText('Applied the fix for "A trailing dash is kept" to src/slugify.js.')
          .waitFor({ timeout: 30_000 });
        // The finding is dealt with: its thread goes; no request reached the model for the fix.
        await thread.waitFor({ state: "detached", timeout: 15_000 });
        assert.equal(server.requests.length, 2);
        await ctx.screenshot("e2e-review-4-applied");

        // A finding without a fix offers only Dismiss, which takes its thread away.
        const nit = page.locator(".review-widget").filter({ hasText: "Name the pattern" });
        await nit.hover();
        await nit.getByRole("button", { name: "Dismiss" }).waitFor({ state: "visible", timeout: 10_000 });
        assert.equal(await nit.getByRole("button", { name: "Apply fix" }).count(), 0);
        await nit.getByRole("button", { name: "Dismiss" }).click();
        await nit.waitFor({ state: "detached", timeout: 15_000 });
      });
    },
  },
];
