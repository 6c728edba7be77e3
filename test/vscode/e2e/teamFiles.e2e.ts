// The files teams keep, in a real VS Code: typing `/` lists a prompt file's command, running it
// sends the filled-in file to the model; "Rules (N)" lists the root AGENTS.md and opens it; a
// custom agent picked in the header runs the next message with its instructions and only its tools.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { openChat, until, withScriptedModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";

const FILES: Record<string, string> = {
  "AGENTS.md": "E2E-ROOT-RULE: run npm test before answering.\n",
  ".claude/commands/fix-issue.md":
    "---\ndescription: Fix a GitHub issue by number\nargument-hint: NUMBER PRIORITY\n---\nFix issue #$1 with priority $2 (e2e prompt file).\n",
  ".github/agents/reviewer.agent.md":
    "---\ndescription: Reviews code without changing it\ntools: ['search', 'read']\n---\nE2E-REVIEWER: you review and never edit.\n",
};

type Body = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };

export const tests: E2ETest[] = [
  {
    name: "team files: / lists a prompt file and runs it, Rules (N) opens AGENTS.md, a custom agent picked in the header narrows the tools",
    timeoutMs: 300_000,
    prepare(dir) {
      for (const [name, text] of Object.entries(FILES)) {
        fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        fs.writeFileSync(path.join(dir, name), text);
      }
    },
    async run(ctx) {
      const { page } = ctx;
      await withScriptedModel(ctx, async (server) => {
        server.push({ text: "Issue 7 is fixed.", chunkDelayMs: 5 }, { text: "The code reads well.", chunkDelayMs: 5 });
        let chat = await openChat(page);
        const box = chat.getByRole("textbox", { name: "Message" });
        await box.click();
        await box.pressSequentially("/");
        const commands = chat.getByRole("listbox", { name: "Commands" });
        const option = commands.getByRole("option").filter({ hasText: "/fix-issue" });
        await option.waitFor({ state: "visible", timeout: 30_000 });
        assert.match((await option.textContent()) ?? "", /Fix a GitHub issue by number/);
        await commands.getByRole("option").filter({ hasText: "/new" }).first().waitFor();
        await ctx.screenshot("e2e-team-slash");
        await box.pressSequentially("fix");
        await page.keyboard.press("Enter");
        assert.equal(await box.inputValue(), "/fix-issue ");
        await box.pressSequentially("7 high");
        await page.keyboard.press("Enter");
        await chat.getByText("Issue 7 is fixed.").waitFor({ state: "visible", timeout: 60_000 });
        const first = server.requests[0]!.body as Body;
        const userText = JSON.stringify(first.messages.filter((m) => m.role === "user"));
        assert.match(
          userText,
          /Fix issue #7 with priority high \(e2e prompt file\)/,
          "the model got the filled-in prompt file",
        );
        assert.match(JSON.stringify(first), /E2E-ROOT-RULE/, "the root AGENTS.md is in the request");

        // "Rules (1)" lists the root AGENTS.md; its path opens the file.
        await chat.locator("header").getByText("Rules (1)").click();
        await chat.getByRole("list", { name: "Rules in force" }).getByRole("button", { name: "/AGENTS.md" }).click();
        await page
          .locator(".tabs-container .tab")
          .filter({ hasText: "AGENTS.md" })
          .waitFor({ state: "visible", timeout: 30_000 });

        // The Agent box: the next message runs as the reviewer.
        chat = await openChat(page);
        const agent = chat.getByRole("combobox", { name: "Agent" });
        await agent.selectOption("reviewer");
        await until("the Agent box shows the reviewer", async () => (await agent.inputValue()) === "reviewer");
        await ctx.screenshot("e2e-team-agent");
        await chat.getByRole("textbox", { name: "Message" }).fill("Review src/slugify.js");
        await chat.getByRole("button", { name: "Send" }).click();
        await chat.getByText("The code reads well.").waitFor({ state: "visible", timeout: 60_000 });
        const second = server.requests[1]!.body as Body;
        const tools = (second.tools ?? []).map((t) => t.function.name);
        assert.match(JSON.stringify(second), /E2E-REVIEWER: you review and never edit\./);
        assert.ok(tools.includes("read_file"), tools.join());
        for (const t of ["write_file", "edit_file", "execute"])
          assert.ok(!tools.includes(t), `${t} offered to the reviewer: ${tools.join()}`);

        // Files written while the window is open are read again (the watcher): a new prompt file
        // is under `/`, and an agent file that cannot be read is a problem in the Team files list.
        const dir = ctx.session.workspaceDir;
        fs.mkdirSync(path.join(dir, ".github", "prompts"), { recursive: true });
        fs.writeFileSync(
          path.join(dir, ".github", "prompts", "later.prompt.md"),
          "---\ndescription: Added while the window was open\n---\nLater.\n",
        );
        fs.mkdirSync(path.join(dir, ".claude", "agents"), { recursive: true });
        fs.writeFileSync(path.join(dir, ".claude", "agents", "broken.md"), "---\nname: [unclosed\n---\nBroken.\n");
        chat = await openChat(page);
        await chat.getByText(/^Team files \(\d+ found, 1 not read\)/).waitFor({ state: "visible", timeout: 30_000 });
        const again = chat.getByRole("textbox", { name: "Message" });
        await again.fill("");
        await again.pressSequentially("/lat");
        await chat
          .getByRole("listbox", { name: "Commands" })
          .getByRole("option")
          .filter({ hasText: "Added while the window was open" })
          .waitFor({ state: "visible", timeout: 30_000 });
      });
    },
  },
];
