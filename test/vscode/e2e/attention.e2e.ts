// When Fathom waits for the person, in the real VS Code (code-server + headless Chromium):
//   1. the person's unsaved edits on a proposal's right side survive a real window reload:
//      Resume asks again with them, and Approve writes them;
//   2. with the chat hidden, an approval shows a badge on Fathom's activity-bar icon and a
//      notification whose Approve writes the file; a task ending unseen says so too.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { activityBarItem } from "../harness/browser.js";
import { openChat, runCommand, send, setClipboard, until, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";

export const tests: E2ETest[] = [
  {
    name: "Attention: proposal edits survive a window reload; a hidden chat shows a badge and a notification that approves",
    timeoutMs: 240_000,
    async run(ctx) {
      const { page } = ctx;
      const file = (rel: string) => path.join(ctx.session.workspaceDir, rel);
      await withModel(ctx, async (server) => {
        // 1. A proposal, edited by the person on its right side, then a reload.
        server.push({
          toolCalls: [
            { id: "w1", name: "write_file", arguments: { file_path: "/notes.txt", content: "model text\n" } },
          ],
        });
        let chat = await openChat(page);
        await send(chat, "Write notes.txt");
        const diff = page.locator(".editor-group-container .monaco-diff-editor").first();
        const modified = diff.locator(".editor.modified");
        await modified.getByText("model text").first().waitFor({ state: "visible", timeout: 60_000 });
        await modified.locator(".view-lines").first().click();
        await page.keyboard.press("Control+A");
        await setClipboard(page, "person text");
        await page.keyboard.press("Control+V");
        await modified.getByText("person text").first().waitFor({ state: "visible", timeout: 10_000 });
        await new Promise((r) => setTimeout(r, 1000)); // kept shortly after typing stops
        await page.reload();
        chat = await openChat(page);
        const resume = chat.getByRole("button", { name: "Resume" });
        await resume.waitFor({ state: "visible", timeout: 90_000 });
        server.push({ text: "Notes written." });
        await resume.click();
        // Asked again, with the person's text on the right side, before the model is called.
        await page
          .locator(".editor-group-container .monaco-diff-editor .editor.modified")
          .getByText("person text")
          .first()
          .waitFor({ state: "visible", timeout: 30_000 });
        const card = chat.getByRole("region", { name: /^Proposed change to / }).last();
        await card.getByRole("button", { name: "Approve" }).click();
        await chat.getByText("Notes written.").waitFor({ state: "visible", timeout: 60_000 });
        // The task ends once the editor's check of its last write is in; a message sent before
        // that would steer this task instead of starting the next.
        await chat.getByRole("button", { name: "Cancel" }).waitFor({ state: "hidden", timeout: 30_000 });
        assert.equal(fs.readFileSync(file("notes.txt"), "utf8"), "person text");
        assert.match(JSON.stringify(server.requests.at(-1)!.body), /changed your proposed content/);
        await ctx.screenshot("e2e-attention-1-edits-survived-reload");

        // 2. The chat hidden while an approval waits: a badge and a notification.
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        server.push(
          async () => {
            await held;
            return {
              toolCalls: [{ id: "w2", name: "write_file", arguments: { file_path: "/later.txt", content: "later\n" } }],
            };
          },
          { text: "Later written." },
        );
        const before = server.requests.length;
        await send(chat, "Write later.txt");
        await until("the held request", () => server.requests.length > before, 30_000);
        await runCommand(page, "View: Close Primary Side Bar");
        await page.locator(".sidebar").waitFor({ state: "hidden", timeout: 10_000 });
        release();
        const toast = page
          .locator(".notification-toast")
          .filter({ hasText: /Fathom is waiting for your approval to change \/later\.txt/ });
        await toast.waitFor({ state: "visible", timeout: 60_000 });
        const badge = activityBarItem(page, "Fathom").locator("xpath=..").locator(".badge .badge-content");
        await until(
          "the badge on the activity bar",
          async () => ((await badge.textContent().catch(() => "")) ?? "").trim() === "1",
          10_000,
        );
        await ctx.screenshot("e2e-attention-2-badge-and-notification");
        await toast.getByRole("button", { name: "Approve" }).click();
        await until("later.txt written", () => fs.existsSync(file("later.txt")), 30_000);
        assert.equal(fs.readFileSync(file("later.txt"), "utf8"), "later\n");
        // The task ends while the chat is still hidden: said too, and Show brings the chat back.
        const ended = page.locator(".notification-toast").filter({ hasText: /Fathom finished: Write notes\.txt/ });
        await ended.waitFor({ state: "visible", timeout: 60_000 });
        await ended.getByRole("button", { name: "Show" }).click();
        chat = await openChat(page);
        await chat.getByText("Later written.").waitFor({ state: "visible", timeout: 30_000 });
        await until(
          "the badge to go",
          async () => (await badge.count()) === 0 || ((await badge.textContent().catch(() => "")) ?? "").trim() === "",
          10_000,
        );
        await ctx.screenshot("e2e-attention-3-shown");
      });
    },
  },
];
