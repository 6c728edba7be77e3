// The agent through the real chat webview: code-server in headless Chromium, Fathom pointed at
// the scripted model server (started here, in the test process) through the user settings.
// Found by accessible names only: "Message", "Send", "Resume", and the answer's text.
import * as assert from "node:assert/strict";
import { openChat, send, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";

export const tests: E2ETest[] = [
  {
    name: "Agent: a message sent in the chat view gets the model's streamed answer",
    async run(ctx) {
      await withModel(ctx, async (server) => {
        server.push(
          { toolCalls: [{ id: "r1", name: "read_file", arguments: { file_path: "/src/slugify.js" } }] },
          { text: "slugify lowercases the text and joins words with dashes.", chunkDelayMs: 20 },
        );
        const chat = await openChat(ctx.page);
        await send(chat, "What does slugify do?");
        await chat
          .getByText("slugify lowercases the text and joins words with dashes.")
          .waitFor({ state: "visible", timeout: 30_000 });
        await chat.getByText("Reading /src/slugify.js").first().waitFor({ state: "visible", timeout: 5_000 });
        assert.equal(server.requests.length, 2);
        await ctx.screenshot("e2e-agent-answer");
      });
    },
  },
  {
    name: "Agent: a window reload mid-task, then Resume continues it",
    async run(ctx) {
      await withModel(ctx, async (server) => {
        server.push({ fault: "stall", text: "Halfway through the answer" });
        let chat = await openChat(ctx.page);
        await send(chat, "Explain the sample workspace");
        await chat.getByText("Halfway through the answer").waitFor({ state: "visible", timeout: 30_000 });
        await new Promise((r) => setTimeout(r, 1500)); // the streamed text is checkpointed (at most once a second)

        // A real reload of the window: the extension host restarts, the task is found unfinished.
        await ctx.page.reload();
        chat = await openChat(ctx.page);
        const resume = chat.getByRole("button", { name: "Resume" });
        await resume.waitFor({ state: "visible", timeout: 60_000 });
        // Nothing the person saw is lost, and the view says where the task stopped.
        await chat.getByText("Explain the sample workspace").first().waitFor({ state: "visible", timeout: 10_000 });
        await chat.getByText("Halfway through the answer").waitFor({ state: "visible", timeout: 10_000 });
        await chat.getByText(/stopped while the model was answering/).waitFor({ state: "visible", timeout: 10_000 });
        await ctx.screenshot("e2e-agent-interrupted");

        server.push({ text: "Resumed: the workspace has a slugify module and its test." });
        await resume.click();
        await chat
          .getByText("Resumed: the workspace has a slugify module and its test.")
          .waitFor({ state: "visible", timeout: 30_000 });
        const last = server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
        assert.match(JSON.stringify(last.messages), /Explain the sample workspace/);
        await ctx.screenshot("e2e-agent-resumed");
      });
    },
  },
];
