// Checkpoints through the real chat webview (issue 13): a task creates a file and edits two;
// the person then changes one of those edited files in the editor and saves it; Restore on the
// message shows the conflict, and restoring files puts the other edit back, deletes the created
// file and leaves the person's file as they left it. The transcript says what was and was not restored.
// Then Edit and resend. A second test works in a multi-root workspace from an edit card's Restore.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { openChat, send, until, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";

export const tests: E2ETest[] = [
  {
    name: "Checkpoints: Restore on a message takes back the task's files, and leaves a file the person changed since",
    settings: { "fathom.autoApprove.edit": true },
    async run(ctx) {
      const ws = ctx.session.workspaceDir;
      const slugify = fs.readFileSync(path.join(ws, "src/slugify.js"), "utf8");
      await withModel(ctx, async (server) => {
        server.push(
          {
            toolCalls: [
              { id: "r1", name: "read_file", arguments: { file_path: "/src/slugify.js" } },
              { id: "r2", name: "read_file", arguments: { file_path: "/README.md" } },
            ],
          },
          {
            toolCalls: [
              {
                id: "w1",
                name: "write_file",
                arguments: {
                  file_path: "/src/toSlug.js",
                  content: "export { slugify as toSlug } from './slugify.js';\n",
                },
              },
            ],
          },
          {
            toolCalls: [
              {
                id: "e1",
                name: "edit_file",
                arguments: {
                  file_path: "/src/slugify.js",
                  old_string: ".replace(/^-/, '')",
                  new_string: ".replace(/^-|-$/g, '')",
                },
              },
            ],
          },
          {
            toolCalls: [
              {
                id: "e2",
                name: "edit_file",
                arguments: {
                  file_path: "/README.md",
                  old_string: "# Sample workspace",
                  new_string: "# Sample workspace (slugs fixed)",
                },
              },
            ],
          },
          { text: "Fixed the trailing dash and added toSlug." },
        );
        const chat = await openChat(ctx.page);
        await send(chat, "Fix the trailing dash in slugify");
        await chat
          .getByText("Fixed the trailing dash and added toSlug.")
          .waitFor({ state: "visible", timeout: 60_000 });
        // The task ends once the editor's check of its last writes is in (a moment after its answer shows).
        await chat.getByRole("button", { name: "Cancel" }).waitFor({ state: "hidden", timeout: 30_000 });
        assert.match(fs.readFileSync(path.join(ws, "src/slugify.js"), "utf8"), /\^-\|-\$/);
        assert.ok(fs.existsSync(path.join(ws, "src/toSlug.js")));
        // The person changes README.md after Fathom did (as an editor save would).
        const personsReadme = `${fs.readFileSync(path.join(ws, "README.md"), "utf8")}\nA line the person added.\n`;
        assert.match(personsReadme, /slugs fixed/);
        fs.writeFileSync(path.join(ws, "README.md"), personsReadme);

        // Back to the top of the transcript, where the message is (the list renders what is in view).
        await chat.locator(".transcript").evaluate((el) => (el.scrollTop = 0));
        await chat.getByRole("article", { name: "You" }).hover({ timeout: 10_000 });
        await chat.getByRole("button", { name: "Restore to before this message" }).click();
        const panel = chat.getByRole("region", { name: /^Restore to before your message/ });
        await panel.waitFor({ state: "visible", timeout: 30_000 });
        const files = panel.getByRole("list", { name: "Files" });
        await files
          .getByRole("listitem")
          .filter({ hasText: "/src/slugify.js" })
          .getByText("put back its earlier text")
          .waitFor({ timeout: 10_000 });
        await files
          .getByRole("listitem")
          .filter({ hasText: "/src/toSlug.js" })
          .getByText("deleted (Fathom created it)")
          .waitFor();
        await files
          .getByRole("listitem")
          .filter({ hasText: "/README.md" })
          .getByText(/changed after Fathom's last change: left as it is/)
          .waitFor();
        await ctx.screenshot("e2e-checkpoints-preview");
        await panel.getByRole("button", { name: "Restore files only" }).click();
        await panel.waitFor({ state: "detached", timeout: 30_000 });
        // The notice is at the end of the transcript.
        await chat.locator(".transcript").evaluate((el) => (el.scrollTop = el.scrollHeight));

        await chat
          .getByText(/Files restored to before your message .*put back \/src\/slugify\.js; deleted \/src\/toSlug\.js/)
          .waitFor({ state: "visible", timeout: 30_000 });
        await chat
          .getByText(/Left as they are \(changed after Fathom's last change\): \/README\.md/)
          .waitFor({ state: "visible", timeout: 5_000 });
        assert.equal(fs.readFileSync(path.join(ws, "src/slugify.js"), "utf8"), slugify, "the edit was taken back");
        assert.ok(!fs.existsSync(path.join(ws, "src/toSlug.js")), "the created file was deleted");
        assert.equal(
          fs.readFileSync(path.join(ws, "README.md"), "utf8"),
          personsReadme,
          "the person's file is as they left it",
        );
        // Nothing of Fathom's in the workspace, no git run.
        assert.ok(!fs.readdirSync(ws).some((f) => /fathom|checkpoint/i.test(f)));
        await ctx.screenshot("e2e-checkpoints-restored");

        // Edit and resend: the conversation goes back to before the message, its text into the box.
        await chat.locator(".transcript").evaluate((el) => (el.scrollTop = 0));
        await chat.getByRole("article", { name: "You" }).hover({ timeout: 10_000 });
        await chat.getByRole("button", { name: "Edit this message" }).click();
        const box = chat.getByRole("textbox", { name: "Message" });
        await until(
          "the message back in the box",
          async () => (await box.inputValue()) === "Fix the trailing dash in slugify",
          15_000,
        );
        await chat.getByRole("article", { name: "You" }).waitFor({ state: "detached", timeout: 15_000 });
        await box.pressSequentially(" only");
        server.push({ text: "Only slugify, then." });
        await chat.getByRole("button", { name: "Send" }).click();
        await chat.getByText("Only slugify, then.").waitFor({ state: "visible", timeout: 60_000 });
        const resent = JSON.stringify(server.requests.at(-1)!.body.messages);
        assert.match(resent, /Fix the trailing dash in slugify only/);
        assert.doesNotMatch(
          resent,
          /Fixed the trailing dash and added toSlug/,
          "the model starts again from before the message",
        );
      });
    },
  },
  {
    name: "Checkpoints: multi-root workspace, Restore on an applied edit with its diff, then the task deleted from the history frees its checkpoints",
    settings: { "fathom.autoApprove.edit": true },
    timeoutMs: 240_000,
    // Two folders: the sample workspace as "app" and a second folder "lib".
    workspaceFile(workspaceDir) {
      const lib = path.join(workspaceDir, "..", "lib");
      fs.mkdirSync(lib, { recursive: true });
      fs.writeFileSync(path.join(lib, "index.js"), "export const lib = 1;\n");
      const file = path.join(workspaceDir, "..", "two-folders.code-workspace");
      fs.writeFileSync(
        file,
        JSON.stringify({
          folders: [
            { name: "app", path: workspaceDir },
            { name: "lib", path: lib },
          ],
        }),
      );
      return file;
    },
    async run(ctx) {
      const ws = ctx.session.workspaceDir;
      const lib = path.join(ws, "..", "lib");
      const slugify = fs.readFileSync(path.join(ws, "src/slugify.js"), "utf8");
      await withModel(ctx, async (server) => {
        server.push(
          {
            toolCalls: [
              { id: "r1", name: "read_file", arguments: { file_path: "/app/src/slugify.js" } },
              { id: "r2", name: "read_file", arguments: { file_path: "/lib/index.js" } },
            ],
          },
          {
            toolCalls: [
              {
                id: "e1",
                name: "edit_file",
                arguments: {
                  file_path: "/app/src/slugify.js",
                  old_string: ".replace(/^-/, '')",
                  new_string: ".replace(/^-|-$/g, '')",
                },
              },
            ],
          },
          {
            toolCalls: [
              {
                id: "e2",
                name: "edit_file",
                arguments: { file_path: "/lib/index.js", old_string: "lib = 1", new_string: "lib = 2" },
              },
            ],
          },
          { text: "Changed app and lib." },
        );
        const chat = await openChat(ctx.page);
        await send(chat, "Change app and lib");
        await chat.getByText("Changed app and lib.").waitFor({ state: "visible", timeout: 60_000 });
        // Restore waits for the task's end (the editor's check of its last writes comes just after the answer).
        await chat.getByRole("button", { name: "Cancel" }).waitFor({ state: "hidden", timeout: 30_000 });
        assert.equal(fs.readFileSync(path.join(lib, "index.js"), "utf8"), "export const lib = 2;\n");
        assert.notEqual(fs.readFileSync(path.join(ws, "src/slugify.js"), "utf8"), slugify);
        // The checkpoints are in VS Code's storage for this workspace, not in either folder.
        const journals = () =>
          findAll(
            ctx.session.userDataDir,
            (f) => f.endsWith(".jsonl") && f.includes(`${path.sep}checkpoints${path.sep}journals${path.sep}`),
          );
        const blobs = () =>
          findAll(ctx.session.userDataDir, (f) => f.includes(`${path.sep}checkpoints${path.sep}blobs${path.sep}`));
        assert.equal(journals().length, 1);
        assert.ok(blobs().length >= 3, `blobs: ${blobs().length}`);

        // Restore on the second edit's card: only lib/index.js goes back.
        await chat
          .getByRole("button", { name: "Restore to before this change to /lib/index.js" })
          .click({ timeout: 15_000 });
        const panel = chat.getByRole("region", { name: "Restore to before Fathom changed /lib/index.js" });
        await panel.waitFor({ state: "visible", timeout: 30_000 });
        const files = panel.getByRole("list", { name: "Files" });
        await files
          .getByRole("listitem")
          .filter({ hasText: "/lib/index.js" })
          .getByText("put back its earlier text")
          .waitFor({ timeout: 10_000 });
        assert.equal(await files.getByRole("listitem").count(), 1);
        // Its diff opens in the editor: the file now beside what the restore makes it.
        await files.getByRole("button", { name: "Show the diff of /lib/index.js" }).click();
        await ctx.page
          .locator(".tabs-container .tab")
          .filter({ hasText: "index.js (now ↔ after the restore)" })
          .waitFor({ state: "visible", timeout: 30_000 });
        const diff = ctx.page.locator(".monaco-diff-editor").first();
        await diff.waitFor({ state: "visible", timeout: 15_000 });
        await diff.getByText("lib = 2").first().waitFor({ timeout: 10_000 });
        await diff.getByText("lib = 1").first().waitFor({ timeout: 10_000 });
        await ctx.screenshot("e2e-checkpoints-multiroot-diff");
        await panel.getByRole("button", { name: "Restore files and conversation" }).click();
        await panel.waitFor({ state: "detached", timeout: 30_000 });
        await chat
          .getByText(
            "Files restored to before Fathom changed /lib/index.js: put back /lib/index.js. The conversation is back to before Fathom changed /lib/index.js.",
          )
          .waitFor({ state: "visible", timeout: 30_000 });
        assert.equal(fs.readFileSync(path.join(lib, "index.js"), "utf8"), "export const lib = 1;\n");
        assert.match(fs.readFileSync(path.join(ws, "src/slugify.js"), "utf8"), /\^-\|-\$/, "the earlier edit stays");
        assert.equal(
          await chat.getByText("Changed app and lib.").count(),
          0,
          "the conversation ends before the restored edit",
        );

        // The history shows the storage used; deleting the task (asked in VS Code's dialog) frees its checkpoints.
        await chat.getByRole("button", { name: "Task history" }).click();
        const history = chat.getByRole("navigation", { name: "Task history" });
        await history
          .getByText(/^Storage used: checkpoints take \d+ KB of 300\.0 MB/)
          .waitFor({ state: "visible", timeout: 15_000 });
        await history.getByRole("button", { name: "Delete task Change app and lib" }).click();
        const dialog = ctx.page.getByRole("dialog").filter({ hasText: "Delete the task “Change app and lib”?" });
        await dialog.waitFor({ state: "visible", timeout: 15_000 });
        await dialog.getByRole("button", { name: "Delete Task" }).click();
        await until("the checkpoints freed", () => journals().length === 0 && blobs().length === 0, 30_000);
        assert.equal(
          fs.readFileSync(path.join(lib, "index.js"), "utf8"),
          "export const lib = 1;\n",
          "files are not touched",
        );
        assert.match(fs.readFileSync(path.join(ws, "src/slugify.js"), "utf8"), /\^-\|-\$/);
        await history.getByText("No earlier tasks yet.").waitFor({ state: "visible", timeout: 15_000 });
        await ctx.screenshot("e2e-checkpoints-deleted");
      });
    },
  },
];

/** Files under `dir` (recursively) for which `keep` is true. */
function findAll(dir: string, keep: (file: string) => boolean): string[] {
  return fs
    .readdirSync(dir, { recursive: true })
    .map((f) => path.join(dir, String(f)))
    .filter((f) => keep(f) && fs.statSync(f, { throwIfNoEntry: false })?.isFile());
}
