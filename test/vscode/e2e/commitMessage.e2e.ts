// Generate Commit Message through the real UI (code-server + Chromium): the workspace is a git
// repository with a staged fix; the Source Control view's button (found by its accessible
// name) fills the box with the scripted model's message, written from the staged diff and the
// repository's subjects; pressed again, the button turns into Stop, and Stop gives the box back.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { activityBarItem } from "../harness/browser.js";
import { until, withScriptedModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";
import { faults } from "../../support/scriptedModelServer.js";

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Person", "-c", "user.email=person@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });

const SUBJECTS = ["Add slugify and its command", "Test the slug of a title", "Explain the slug command"];
const MESSAGE = "Drop the trailing dash\n\nSlugs no longer end in -.";

/** The sample as a repository with three commits, a staged fix and an unstaged edit. */
function prepare(dir: string): void {
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", SUBJECTS[0]!);
  fs.appendFileSync(path.join(dir, "test/slugify.test.js"), "// more cases to come\n");
  git(dir, "commit", "-q", "-am", SUBJECTS[1]!);
  fs.appendFileSync(path.join(dir, "README.md"), "\nRun `node src/cli.js Hello World`.\n");
  git(dir, "commit", "-q", "-am", SUBJECTS[2]!);
  const slugify = path.join(dir, "src/slugify.js");
  fs.writeFileSync(
    slugify,
    fs
      .readFileSync(slugify, "utf8")
      .replace(".replace(/^-/, ''); // bug on purpose: a trailing \"-\" is kept", ".replace(/^-|-$/g, '');"),
  );
  git(dir, "add", "src/slugify.js");
  fs.appendFileSync(path.join(dir, "README.md"), "\nAn unstaged note.\n");
}

/** The Source Control box's text, line by line as the editor shows it. */
function boxText(page: Page): Promise<string> {
  return page
    .locator(".scm-editor .view-lines")
    .first()
    .evaluate((el) =>
      Array.from(el.querySelectorAll<HTMLElement>(".view-line"))
        .map((line) => ({ top: parseFloat(line.style.top), text: (line.textContent ?? "").replace(/\u00a0/g, " ") }))
        .sort((a, b) => a.top - b.top)
        .map((line) => line.text)
        .join("\n")
        .trimEnd(),
    );
}

/** A button of the Source Control view's title, which VS Code shows while the pointer is over the view. */
async function titleButton(page: Page, name: string) {
  const button = page.locator(".part.sidebar").getByRole("button", { name, exact: true });
  await page.locator(".part.sidebar .scm-view").first().hover();
  await button.waitFor({ state: "visible", timeout: 30_000 });
  return button;
}

export const tests: E2ETest[] = [
  {
    name: "Commit message: the Source Control button writes the message for the staged change; Stop gives the box back",
    timeoutMs: 240_000,
    prepare,
    async run(ctx) {
      const { page } = ctx;
      await withScriptedModel(ctx, async (server) => {
        await activityBarItem(page, "Source Control").click();
        await page
          .locator(".part.sidebar")
          .getByText("Staged Changes")
          .first()
          .waitFor({ state: "visible", timeout: 60_000 });

        server.push({ text: `\`\`\`\n${MESSAGE}\n\`\`\``, chunkDelayMs: 20 });
        await (await titleButton(page, "Generate Commit Message")).click();
        await until("the message in the Source Control box", async () => (await boxText(page)) === MESSAGE, 60_000);
        await ctx.screenshot("e2e-commit-message-1-written");

        // What the model was asked: the staged diff (not the unstaged edit) and the repository's subjects.
        assert.equal(server.requests.length, 1);
        const user = (server.requests[0]!.body.messages as { role: string; content: string }[]).find(
          (m) => m.role === "user",
        )!.content;
        assert.match(user, /=== src\/slugify\.js \(modified, \+1 -1\)/);
        assert.ok(user.includes("+    .replace(/^-|-$/g, '');"), user);
        assert.ok(user.includes("-    .replace(/^-/, ''); // bug on purpose"), user);
        assert.doesNotMatch(user, /unstaged note/);
        assert.ok(
          user.includes(
            SUBJECTS.slice()
              .reverse()
              .map((s) => `- ${s}`)
              .join("\n"),
          ),
          user,
        );
        assert.equal(server.requests[0]!.body.tools, undefined, "no tools");

        // Again, with a model that stalls: the button turns into Stop, which gives the box back.
        server.push(faults.stall("Half a subj"));
        await (await titleButton(page, "Generate Commit Message")).click();
        await until("the new text streaming in", async () => (await boxText(page)) === "Half a subj", 60_000);
        const stop = await titleButton(page, "Stop Generating Commit Message");
        await ctx.screenshot("e2e-commit-message-2-writing");
        await stop.click();
        await until("the box back as it was", async () => (await boxText(page)) === MESSAGE, 30_000);
        await titleButton(page, "Generate Commit Message");
        assert.equal(server.requests.length, 2);
      });
    },
  },
];
