// MCP through the real chat webview (issue 12): a server from the person's own MCP file is
// listed before it starts, the model calls its tool, the person clicks "Always allow" on the
// card, the result reaches the model and the transcript, the list shows it ready, and the
// choice is written into the person's file (so the next call is not asked); then one of its
// resources is attached with @ from the composer and its text reaches the model.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openChat, send, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";
import { repoRoot } from "../harness/paths.js";

const configHome = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-e2e-xdg-"));
const mcpFile = path.join(configHome, "fathom", "mcp.json");
const everything = path.join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

export const tests: E2ETest[] = [
  {
    name: "MCP: a server from the person's file, its tool approved on the card with Always allow",
    env: { XDG_CONFIG_HOME: configHome },
    async run(ctx) {
      fs.mkdirSync(path.dirname(mcpFile), { recursive: true });
      fs.writeFileSync(
        mcpFile,
        `{\n  // written by the e2e test\n  "mcpServers": {\n    "everything": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(everything)}] }\n  }\n}\n`,
      );
      await withModel(ctx, async (server) => {
        const chat = await openChat(ctx.page);
        // Listed before any task starts it.
        await chat.getByText("MCP servers (0/1 ready)").click({ timeout: 30_000 });
        await chat
          .getByRole("listitem", { name: "everything: not started" })
          .waitFor({ state: "visible", timeout: 10_000 });

        server.push(
          { toolCalls: [{ id: "m1", name: "mcp__everything__toggle-simulated-logging", arguments: {} }] },
          { text: "Simulated logging is now on." },
        );
        await send(chat, "Turn on the simulated logging");
        const approval = chat.getByRole("group", { name: "Approval for mcp__everything__toggle-simulated-logging" });
        await approval.waitFor({ state: "visible", timeout: 60_000 });
        await chat
          .getByText("Calling toggle-simulated-logging on the MCP server everything")
          .first()
          .waitFor({ state: "visible", timeout: 5_000 });
        await ctx.screenshot("e2e-mcp-card");
        await approval.getByRole("button", { name: /Always allow/ }).click();
        await chat.getByText("Simulated logging is now on.").waitFor({ state: "visible", timeout: 30_000 });
        const result = (server.requests[1]!.body.messages as { role: string; content: string }[]).find(
          (m) => m.role === "tool",
        );
        assert.match(result?.content ?? "", /logging/i, "the tool result reached the model");
        await chat.getByRole("listitem", { name: "everything: ready" }).waitFor({ state: "visible", timeout: 10_000 });
        // Remembered in the person's file, comments kept.
        const text = fs.readFileSync(mcpFile, "utf8");
        assert.match(text, /written by the e2e test/);
        assert.match(text, /"autoApprove": \[\s*"toggle-simulated-logging"\s*\]/);
        await ctx.screenshot("e2e-mcp-done");

        // Its resources can be attached with @ like files.
        server.push({ text: "The architecture document is attached." });
        const box = chat.getByRole("textbox", { name: "Message" });
        await box.click();
        await box.pressSequentially("Summarise @architecture");
        await chat
          .getByRole("option", { name: "architecture.md MCP resource of everything" })
          .click({ timeout: 30_000 });
        assert.match(await box.inputValue(), /@mcp:everything:demo:\/\/resource\/static\/document\/architecture\.md $/);
        await box.press("Enter");
        await chat.getByText("The architecture document is attached.").waitFor({ state: "visible", timeout: 30_000 });
        const asked = JSON.stringify(server.requests.at(-1)!.body.messages);
        assert.match(
          asked,
          /<resource server=\\"everything\\" uri=\\"demo:\/\/resource\/static\/document\/architecture.md\\">/,
        );
        assert.match(asked, /Everything Server/);
      });
    },
  },
  {
    name: "MCP: a workspace's server starts only after the person approves its command line; a changed definition asks again",
    env: { XDG_CONFIG_HOME: fs.mkdtempSync(path.join(os.tmpdir(), "fathom-e2e-xdg-")) },
    async run(ctx) {
      const marker = path.join(ctx.session.workspaceDir, "ws-server-started.txt");
      const define = (extra: string[]) =>
        fs.writeFileSync(
          path.join(ctx.session.workspaceDir, ".mcp.json"),
          JSON.stringify({
            mcpServers: {
              "repo-tools": {
                command: process.execPath,
                args: ["-e", `require('fs').appendFileSync(${JSON.stringify(marker)}, 'ran\\n')`, ...extra],
              },
            },
          }),
        );
      define([]);
      await withModel(ctx, async (server) => {
        const chat = await openChat(ctx.page);
        server.push({ text: "First answer." });
        await send(chat, "hello");
        // VS Code's modal dialog, with the resolved command line; nothing ran before the answer.
        const dialog = ctx.page
          .getByRole("dialog")
          .filter({ hasText: 'This workspace defines the MCP server "repo-tools"' });
        await dialog.waitFor({ state: "visible", timeout: 60_000 });
        await dialog.getByText(/It runs: .*appendFileSync/).waitFor({ state: "visible", timeout: 5_000 });
        assert.ok(!fs.existsSync(marker), "the server ran before the person approved it");
        await ctx.screenshot("e2e-mcp-workspace-approval");
        await dialog.getByRole("button", { name: "Start Server" }).click();
        await chat.getByText("First answer.").waitFor({ state: "visible", timeout: 30_000 });
        assert.ok(fs.existsSync(marker), "approved, the server was started");

        // A changed definition asks again; declined, it does not run.
        define(["--changed"]);
        fs.rmSync(marker);
        server.push({ text: "Second answer." });
        await send(chat, "again");
        await dialog.waitFor({ state: "visible", timeout: 60_000 });
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await chat.getByText("Second answer.").waitFor({ state: "visible", timeout: 30_000 });
        assert.ok(!fs.existsSync(marker), "declined, the changed server did not run");
      });
    },
  },
];
