// MCP in code-server (issue 12, items 2, 3 and 6): a workspace server's `${input:id}` is asked
// for only after the person approved the server (whose approval shows the placeholder, not a
// value), reaches the server, and is written to no file (workspace, settings, logs, state);
// and when the window closes (its extension host is shut down, as when VS Code closes), its MCP servers end with it,
// even one that ignores a closed stdin and SIGTERM.
import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openChat, send, until, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";
import { repoRoot } from "../harness/paths.js";

const fixture = path.join(repoRoot, "test/support/mcpFixtureServer.mjs");
const inputHome = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-e2e-xdg-"));
const stubbornHome = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-e2e-xdg-"));

/** Files under `dir` (recursively) whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    try {
      if (fs.readFileSync(file).includes(needle)) found.push(file);
    } catch {
      // unreadable (a socket, a file gone meanwhile)
    }
  }
  return found;
}

/** Pids of processes whose command line holds `tag`, the shells that start them left out. */
function tagged(tag: string): number[] {
  return fs
    .readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        const cmd = fs.readFileSync(`/proc/${p}/cmdline`, "utf8");
        return cmd.includes(tag) && cmd.includes("mcpFixtureServer");
      } catch {
        return false;
      }
    })
    .map(Number);
}

export const tests: E2ETest[] = [
  {
    name: "MCP: a workspace server's input is asked after its approval, reaches it, and is written to no file",
    env: { XDG_CONFIG_HOME: inputHome },
    async run(ctx) {
      const secret = `tok-${Date.now()}-e2e-secret`;
      fs.mkdirSync(path.join(ctx.session.workspaceDir, ".vscode"), { recursive: true });
      fs.writeFileSync(
        path.join(ctx.session.workspaceDir, ".vscode", "mcp.json"),
        JSON.stringify({
          inputs: [{ type: "promptString", id: "api-token", description: "Token for the repo tool", password: true }],
          servers: {
            "repo-tool": {
              type: "stdio",
              command: process.execPath,
              args: [fixture],
              env: { TOOL_COUNT: "1", FIXTURE_SECRET: "${input:api-token}" },
            },
          },
        }),
      );
      await withModel(ctx, async (server) => {
        const chat = await openChat(ctx.page);
        server.push(
          { toolCalls: [{ id: "d1", name: "mcp__repo-tool__secret_digest", arguments: {} }] },
          { text: "The server has its token." },
        );
        await send(chat, "check the token");
        const dialog = ctx.page
          .getByRole("dialog")
          .filter({ hasText: 'This workspace defines the MCP server "repo-tool"' });
        await dialog.waitFor({ state: "visible", timeout: 60_000 });
        // What is approved names the input, not a value; nothing was asked before.
        await dialog
          .getByText(/It runs: TOOL_COUNT=1 FIXTURE_SECRET="\$\{input:api-token\}" .*mcpFixtureServer\.mjs/)
          .waitFor({ state: "visible", timeout: 5_000 });
        assert.equal(
          await ctx.page.locator('.quick-input-widget input[type="password"]').isVisible(),
          false,
          "the input was asked before the approval",
        );
        await dialog.getByRole("button", { name: "Start Server" }).click();
        const input = ctx.page.locator('.quick-input-widget input[type="password"]');
        await input.waitFor({ state: "visible", timeout: 30_000 });
        await ctx.page
          .locator(".quick-input-widget")
          .getByText(
            /Token for the repo tool\. Asked by mcp\.json; kept in VS Code's secret storage, never written to a file\./,
          )
          .waitFor({ timeout: 5_000 });
        await input.fill(secret);
        await ctx.page.keyboard.press("Enter");
        const approval = chat.getByRole("group", { name: "Approval for mcp__repo-tool__secret_digest" });
        await approval.waitFor({ state: "visible", timeout: 60_000 });
        await approval.getByRole("button", { name: "Approve", exact: true }).click();
        await chat.getByText("The server has its token.").waitFor({ state: "visible", timeout: 30_000 });
        const result = (server.requests[1]!.body.messages as { role: string; content: string }[]).find(
          (m) => m.role === "tool",
        );
        assert.equal(
          result?.content,
          createHash("sha256").update(secret).digest("hex"),
          "the server got the value typed",
        );
        await ctx.screenshot("e2e-mcp-input");
        // Give VS Code time to flush its state and logs, then look everywhere this session writes.
        await ctx.page.waitForTimeout(2_000);
        const leaks = [ctx.session.workspaceDir, ctx.session.userDataDir, inputHome].flatMap((d) =>
          fs.existsSync(d) ? filesContaining(d, secret) : [],
        );
        assert.deepEqual(leaks, [], "the input value was written to a file");
      });
    },
  },
  {
    name: "MCP: when the window closes, its MCP servers end, even one that ignores SIGTERM",
    env: { XDG_CONFIG_HOME: stubbornHome },
    async run(ctx) {
      const tag = `--fathom-e2e-tag=${path.basename(ctx.session.root)}`;
      const file = path.join(stubbornHome, "fathom", "mcp.json");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(
        file,
        JSON.stringify({
          mcpServers: {
            stubborn: { command: process.execPath, args: [fixture, tag], env: { TOOL_COUNT: "2", STUBBORN: "1" } },
          },
        }),
      );
      await withModel(ctx, async (server) => {
        const chat = await openChat(ctx.page);
        server.push({ text: "Hello." });
        await send(chat, "hello");
        await chat.getByText("Hello.").waitFor({ state: "visible", timeout: 60_000 });
        await until("the server runs", () => tagged(tag).length > 0, 30_000);
        // The window closes and opens again (code-server has no "Restart Extension Host"): the
        // extension host it had is shut down as when VS Code closes.
        await ctx.page.reload();
        await until("no MCP server left after the window closed", () => tagged(tag).length === 0, 15_000).catch(
          (e: Error) => {
            throw new Error(`${e.message}: still running ${tagged(tag).join(", ")}`);
          },
        );
        // The new extension host starts nothing until a task needs it.
        await openChat(ctx.page);
        await ctx.page.waitForTimeout(1_000);
        assert.deepEqual(tagged(tag), []);
      });
    },
  },
];
