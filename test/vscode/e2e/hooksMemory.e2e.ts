// Hooks and memory in the real chat (issue 31): a PreToolUse hook from the person's own
// hooks.json refuses a write, and its run is a line in the transcript; memories planted for the
// workspace reach the model's first request as the memory index, are listed under "Memories" in
// the Fathom view, and Delete (confirmed in VS Code's dialog) removes one from disk and the list.
// A repository's hook runs only after the person approves it in VS Code's dialog (then not asked
// again); "# …" becomes a memory write shown as memory and approved on its card; the next task's
// first request holds its index line.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openChat, runCommand, send, until, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";
import { memoryFolders } from "../../../src/core/memory/memoryStore.js";
import { sandboxUnavailable } from "../../../src/core/executor/sandbox.js";

const configHome = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-e2e-hooks-xdg-"));
const emptyConfigHome = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-e2e-hooks-xdg-"));
const REPO_HOOK = 'echo "Repository note: the tests run with make check"';

type Sent = { role: string; content: unknown }[];

export const tests: E2ETest[] = [
  {
    name: "Hooks and memory: a hook's line in the transcript; the Memories list with delete",
    env: { XDG_CONFIG_HOME: configHome },
    async run(ctx) {
      const hooksFile = path.join(configHome, "fathom", "hooks.json");
      fs.mkdirSync(path.dirname(hooksFile), { recursive: true });
      fs.writeFileSync(
        hooksFile,
        JSON.stringify({
          hooks: {
            PreToolUse: [
              {
                matcher: "write_file",
                hooks: [{ type: "command", command: 'echo "Writes are frozen today" >&2; exit 2' }],
              },
            ],
          },
        }),
      );
      // The harness gives code-server (and so Fathom) an XDG_DATA_HOME of the session's own.
      const folders = memoryFolders(ctx.session.workspaceDir, {
        XDG_DATA_HOME: path.join(ctx.session.root, "xdg-data"),
      });
      fs.mkdirSync(folders.project, { recursive: true });
      fs.mkdirSync(folders.user, { recursive: true });
      fs.writeFileSync(path.join(folders.project, "style.md"), "Use tabs for indentation\n");
      fs.writeFileSync(path.join(folders.user, "tone.md"), "Answer in short sentences\n");

      await withModel(ctx, async (server) => {
        const chat = await openChat(ctx.page);
        server.push(
          { toolCalls: [{ id: "w1", name: "write_file", arguments: { file_path: "/frozen.txt", content: "x\n" } }] },
          { text: "The hook refused the write." },
        );
        await send(chat, "Write frozen.txt");
        await chat.getByText("The hook refused the write.").waitFor({ state: "visible", timeout: 60_000 });
        await chat
          .getByText(
            /Hook PreToolUse \(write_file\): echo "Writes are frozen today".* · \d+ ms · block — Writes are frozen today/,
          )
          .waitFor({ state: "visible", timeout: 10_000 });
        assert.ok(
          !fs.existsSync(path.join(ctx.session.workspaceDir, "frozen.txt")),
          "the hook kept the write from happening",
        );
        const system = JSON.stringify(server.requests[0]!.body.messages[0]);
        assert.match(
          system,
          /<memory-index>\\n- \/memories\/style\.md: Use tabs for indentation\\n- \/memories\/user\/tone\.md: Answer in short sentences\\n<\/memory-index>/,
        );
        const refused = (server.requests[1]!.body.messages as { role: string; content: string }[]).find(
          (m) => m.role === "tool",
        );
        assert.match(refused?.content ?? "", /A PreToolUse hook refused this call[\s\S]*Writes are frozen today/);
        await ctx.screenshot("e2e-hooks-line");

        await chat.getByText("Memories", { exact: true }).click();
        const style = chat.getByRole("listitem", { name: "/memories/style.md: Use tabs for indentation" });
        await style.waitFor({ state: "visible", timeout: 15_000 });
        await chat
          .getByRole("listitem", { name: "/memories/user/tone.md: Answer in short sentences" })
          .waitFor({ state: "visible", timeout: 5_000 });
        await ctx.screenshot("e2e-memories-list");
        await style.getByRole("button", { name: "Delete /memories/style.md" }).click();
        const dialog = ctx.page.getByRole("dialog").filter({ hasText: "Delete the memory /memories/style.md?" });
        await dialog.waitFor({ state: "visible", timeout: 15_000 });
        await dialog.getByRole("button", { name: "Delete" }).click();
        await chat.getByText("Memories (1)").waitFor({ state: "visible", timeout: 15_000 });
        await until("the memory file to be gone", () => !fs.existsSync(path.join(folders.project, "style.md")), 10_000);
        assert.ok(fs.existsSync(path.join(folders.user, "tone.md")), "the other memory stays");
      });
    },
  },
  {
    name: "Hooks and memory: a repository's hook runs once approved in VS Code's dialog; \"# …\" is a memory write approved on its card, and the next task sees it",
    env: { XDG_CONFIG_HOME: emptyConfigHome },
    prepare(dir) {
      fs.mkdirSync(path.join(dir, ".claude"), { recursive: true });
      fs.writeFileSync(
        path.join(dir, ".claude", "settings.json"),
        JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: REPO_HOOK }] }] } }),
      );
    },
    async run(ctx) {
      // A repository's hooks run only inside the OS sandbox.
      if (process.platform !== "linux" || sandboxUnavailable()) return;
      const folders = memoryFolders(ctx.session.workspaceDir, {
        XDG_DATA_HOME: path.join(ctx.session.root, "xdg-data"),
      });
      await withModel(ctx, async (server) => {
        const chat = await openChat(ctx.page);
        server.push(
          {
            toolCalls: [
              {
                id: "m1",
                name: "write_file",
                arguments: { file_path: "/memories/testing.md", content: "Tests run with make check\n" },
              },
            ],
          },
          { text: "Saved to memory." },
        );
        await send(chat, "# the tests run with make check");

        const dialog = ctx.page.getByRole("dialog").filter({ hasText: "This workspace defines a hook" });
        await dialog.waitFor({ state: "visible", timeout: 60_000 });
        await dialog.getByText(REPO_HOOK).first().waitFor({ state: "visible", timeout: 5_000 });
        await ctx.screenshot("e2e-hooks-workspace-dialog");
        assert.equal(server.requests.length, 0, "nothing is sent while the person decides");
        await dialog.getByRole("button", { name: "Run Hooks" }).click();

        const card = chat.getByRole("region", { name: "Memory write to /memories/testing.md" });
        await card.waitFor({ state: "visible", timeout: 60_000 });
        await card.getByText("memory", { exact: true }).waitFor({ state: "visible", timeout: 5_000 });
        await card
          .getByText("Tests run with make check", { exact: true })
          .waitFor({ state: "visible", timeout: 5_000 });
        await chat
          .getByText(/Hook UserPromptSubmit: echo "Repository note.* · \d+ ms/)
          .waitFor({ state: "visible", timeout: 10_000 });
        assert.ok(
          !fs.existsSync(path.join(folders.project, "testing.md")),
          "nothing is remembered before the approval",
        );
        await ctx.screenshot("e2e-memory-card");
        await card.getByRole("button", { name: "Approve" }).click();
        await chat.getByText("Saved to memory.").waitFor({ state: "visible", timeout: 60_000 });
        await chat.getByRole("button", { name: "Cancel" }).waitFor({ state: "hidden", timeout: 30_000 });
        await until("the memory on disk", () => fs.existsSync(path.join(folders.project, "testing.md")), 10_000);
        assert.equal(fs.readFileSync(path.join(folders.project, "testing.md"), "utf8"), "Tests run with make check\n");
        assert.ok(
          !fs.existsSync(path.join(ctx.session.workspaceDir, "memories")),
          "memory is never written into the repository",
        );
        const first = JSON.stringify(server.requests[0]!.body.messages as Sent);
        assert.match(
          first,
          /<hook-context>[^<]*a hook the repository defines; not the person's words[^<]*Repository note: the tests run with make check/,
        );
        assert.match(first, /<memory-request>/);

        await runCommand(ctx.page, "Fathom: New Task");
        server.push({ text: "Hello again." });
        await send(chat, "hello");
        await chat.getByText("Hello again.").waitFor({ state: "visible", timeout: 60_000 });
        const second = server.requests.at(-1)!.body.messages as Sent;
        assert.match(
          JSON.stringify(second[0]),
          /<memory-index>\\n- \/memories\/testing\.md: Tests run with make check\\n<\/memory-index>/,
        );
        assert.match(JSON.stringify(second), /Repository note/, "the approved hook runs again without asking");
        assert.equal(
          await ctx.page.getByRole("dialog").filter({ hasText: "This workspace defines a hook" }).count(),
          0,
        );
      });
    },
  },
];
