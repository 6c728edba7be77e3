// Permission levels in the real VS Code UI (issue 42, item 1). A task starts at Ask: its first
// write waits on its card. While it waits, the person picks "Edits auto, review after" in the
// header's Approvals box (written to their user settings); from the next tool call the task's
// second write lands on disk without a card, and its command still waits on its card. Found by
// accessible names: "Approvals", "Proposed change to <path>", "Approve", "Reject".
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { openChat, send, until, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";

export const tests: E2ETest[] = [
  {
    name: "Approvals: Edits auto picked mid-task lands the next write without a card; a command still asks",
    async run(ctx) {
      await withModel(ctx, async (server) => {
        const chat = await openChat(ctx.page);
        const levels = chat.getByRole("combobox", { name: "Approvals" });
        await levels.waitFor({ state: "visible", timeout: 30_000 });
        assert.equal(await levels.inputValue(), "ask");

        const file = (name: string) => path.join(ctx.session.workspaceDir, name);
        server.push(
          { toolCalls: [{ id: "w1", name: "write_file", arguments: { file_path: "/first.txt", content: "asked\n" } }] },
          {
            toolCalls: [{ id: "w2", name: "write_file", arguments: { file_path: "/second.txt", content: "landed\n" } }],
          },
          { toolCalls: [{ id: "x1", name: "execute", arguments: { command: "echo asked" } }] },
          { text: "Wrote both notes; the command was not run." },
        );
        await send(chat, "Write two notes, then run echo");
        const first = chat.getByRole("region", { name: "Proposed change to /first.txt" });
        await first.getByRole("button", { name: "Approve" }).waitFor({ state: "visible", timeout: 60_000 });

        // The person switches the level while the first card waits.
        await levels.selectOption("editsAuto");
        const settingsFile = path.join(ctx.session.userDataDir, "User", "settings.json");
        await until(
          "the pick in the user settings",
          () => /"fathom\.approvals":\s*"editsAuto"/.test(fs.readFileSync(settingsFile, "utf8")),
          15_000,
        );
        await ctx.screenshot("e2e-approvals-picked");
        await first.getByRole("button", { name: "Approve" }).click();

        // The command's card waits; by then the second write is on disk, unasked.
        const command = chat.getByRole("article", { name: /echo asked/ }).last();
        await command.getByRole("button", { name: "Approve" }).waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(fs.readFileSync(file("first.txt"), "utf8"), "asked\n");
        assert.equal(fs.readFileSync(file("second.txt"), "utf8"), "landed\n");
        assert.equal(await chat.getByRole("button", { name: "Approve" }).count(), 1, "only the command asks");
        await ctx.screenshot("e2e-approvals-command-asks");
        await command.getByRole("button", { name: "Reject" }).click();
        await chat
          .getByText("Wrote both notes; the command was not run.")
          .waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(server.requests.length, 4);
      });
    },
  },
];
