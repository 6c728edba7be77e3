// Review after (issue 42, item 2) in the real VS Code: a task whose edits land without a card
// (the "Edits auto" level, `fathom.approvals: "editsAuto"`) writes 3 files; the Changes list shows them with +/− counts and the
// view's badge counts them; a file's row opens its diff against the task's start; the Undo
// CodeLens of one hunk in the editor puts back exactly that hunk on disk; Keep all clears the
// list and the badge.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { activityBarItem } from "../harness/browser.js";
import { openChat, openFileWithQuickOpen, send, until, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";

export const tests: E2ETest[] = [
  {
    name: "Changes: auto-approved writes are listed with counts; Undo of one hunk restores exactly it; Keep all clears the list and the badge",
    settings: { "fathom.approvals": "editsAuto" },
    timeoutMs: 240_000,
    async run(ctx) {
      const { page } = ctx;
      const ws = ctx.session.workspaceDir;
      const readme = fs.readFileSync(path.join(ws, "README.md"), "utf8");
      const changedReadme = readme
        .replace("# Sample workspace", "# Sample workspace (reviewed after)")
        .replace('- "Add a `--upper` flag', '- "Add a `--lower` flag');
      assert.notEqual(changedReadme, readme);
      await withModel(ctx, async (server) => {
        server.push(
          {
            toolCalls: [
              { id: "r1", name: "read_file", arguments: { file_path: "/README.md" } },
              { id: "r2", name: "read_file", arguments: { file_path: "/src/slugify.js" } },
            ],
          },
          {
            toolCalls: [
              { id: "w1", name: "write_file", arguments: { file_path: "/README.md", content: changedReadme } },
              {
                id: "e1",
                name: "edit_file",
                arguments: {
                  file_path: "/src/slugify.js",
                  old_string: ".replace(/^-/, '')",
                  new_string: ".replace(/^-|-$/g, '')",
                },
              },
              {
                id: "w2",
                name: "write_file",
                arguments: {
                  file_path: "/src/toSlug.js",
                  content: "export { slugify as toSlug } from './slugify.js';\n",
                },
              },
            ],
          },
          { text: "Three files changed." },
        );
        const chat = await openChat(page);
        await send(chat, "Change three files");
        await chat.getByText("Three files changed.").waitFor({ state: "visible", timeout: 60_000 });
        await chat.getByRole("button", { name: "Cancel" }).waitFor({ state: "hidden", timeout: 30_000 });

        const list = chat.getByRole("region", { name: "Changes" });
        await list.getByText("Changes · 3 files to review").waitFor({ state: "visible", timeout: 30_000 });
        const files = list.getByRole("list", { name: "Files to review" });
        const row = (p: string) => files.getByRole("listitem").filter({ hasText: p });
        await row("/README.md").getByText("+2").waitFor();
        await row("/README.md").getByText("−2").waitFor();
        await row("/src/slugify.js").getByText("+1").waitFor();
        await row("/src/toSlug.js").getByText("+1").waitFor();
        await row("/src/toSlug.js").getByText("−0").waitFor();
        const badge = activityBarItem(page, "Fathom").locator("xpath=..").locator(".badge .badge-content");
        await until(
          "the badge to count 3 files",
          async () => ((await badge.textContent().catch(() => "")) ?? "").trim() === "3",
          15_000,
        );

        // A row opens the diff: the task's start on the left, the file now on the right.
        await row("/README.md")
          .getByRole("button", { name: /^\/README\.md, modified/ })
          .click();
        await page
          .locator(".tabs-container .tab")
          .filter({ hasText: "README.md (task start ↔ now)" })
          .waitFor({ state: "visible", timeout: 15_000 });
        await ctx.screenshot("e2e-changes-1-list-and-diff");

        // Undo of one hunk from its CodeLens in the file's editor.
        await openFileWithQuickOpen(page, "README.md");
        const lens = page.locator(".monaco-editor .codelens-decoration a", { hasText: "Undo" }).first();
        await lens.waitFor({ state: "visible", timeout: 30_000 });
        await lens.click();
        const expected = changedReadme.replace("# Sample workspace (reviewed after)", "# Sample workspace");
        await until(
          "the first hunk undone on disk",
          () => fs.readFileSync(path.join(ws, "README.md"), "utf8") === expected,
          30_000,
        );
        await row("/README.md").getByText("+1").waitFor({ timeout: 15_000 });
        // The undone hunk's lenses go; the other hunk's stay.
        const undoLenses = page.locator(".monaco-editor .codelens-decoration a", { hasText: "Undo" });
        await until("one hunk's lenses left", async () => (await undoLenses.count()) === 1, 15_000);
        await ctx.screenshot("e2e-changes-2-hunk-undone");

        // Keep all: the list goes, and with it the badge.
        await list.getByRole("button", { name: "Keep all changes" }).click();
        await list.waitFor({ state: "detached", timeout: 15_000 });
        await until(
          "the badge to go",
          async () => (await badge.count()) === 0 || ((await badge.textContent().catch(() => "")) ?? "").trim() === "",
          15_000,
        );
        await until("no lenses left", async () => (await undoLenses.count()) === 0, 15_000);
        assert.equal(fs.readFileSync(path.join(ws, "README.md"), "utf8"), expected);
        assert.match(fs.readFileSync(path.join(ws, "src/slugify.js"), "utf8"), /\^-\|-\$/);
        assert.ok(fs.existsSync(path.join(ws, "src/toSlug.js")));
      });
    },
  },
];
