// Models in the real VS Code UI (code-server in headless Chromium), against the scripted server
// dressed as Ollama: the Model box lists the server's models with context window, a pick made
// while a task waits for approval answers from the task's next request and is still there after
// a reload; a pasted screenshot goes to a model that reads images as an image part; a model's
// reasoning shows collapsed; tool calls a local model writes as text are run.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Frame } from "playwright-core";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer.js";
import { writeUserSettings } from "../harness/codeServer.js";
import { openChat, send, until } from "../harness/chat.js";
import type { E2EContext, E2ETest } from "../harness/e2e.js";

const OLLAMA_MODELS = [
  { id: "qwen2.5-coder:14b", contextLength: 32_768, capabilities: ["completion", "tools"] },
  { id: "llava:13b", contextLength: 4_096, capabilities: ["completion", "vision"] },
];

/** The scripted server as an Ollama with two models, and Fathom pointed at it (user settings). */
async function withOllama(
  ctx: E2EContext,
  model: string,
  work: (server: ScriptedModelServer) => Promise<void>,
): Promise<void> {
  const server = await startScriptedModelServer([], { dialect: { lists: { ollama: OLLAMA_MODELS } } });
  try {
    writeUserSettings(ctx.session.userDataDir, {
      "fathom.provider": "openai-compatible",
      "fathom.baseUrl": server.baseUrlOpenAI,
      "fathom.model": model,
    });
    await work(server);
  } finally {
    await server.close();
  }
}

async function pickModel(chat: Frame, id: string, detail: RegExp): Promise<void> {
  const box = chat.getByRole("combobox", { name: "Model" });
  await box.click();
  const option = chat.getByRole("listbox", { name: "Models" }).getByRole("option", { name: detail });
  await option.waitFor({ state: "visible", timeout: 30_000 });
  await option.click();
  await until(
    `the Model box to show ${id}`,
    async () => (await box.inputValue()) === id && (await box.getAttribute("aria-expanded")) === "false",
  );
}

export const tests: E2ETest[] = [
  {
    name: "Models: the Model box lists the server’s models; a pick mid-task answers from the next request and survives a reload",
    timeoutMs: 240_000,
    async run(ctx) {
      await withOllama(ctx, "qwen2.5-coder:14b", async (server) => {
        server.push(
          {
            text: "I will add a note.",
            toolCalls: [{ id: "w1", name: "write_file", arguments: { file_path: "/NOTES.md", content: "# Notes\n" } }],
          },
          { text: "Done: NOTES.md is there." },
        );
        let chat = await openChat(ctx.page);
        const box = chat.getByRole("combobox", { name: "Model" });
        await until(
          "the Model box to show the set model",
          async () => (await box.inputValue()) === "qwen2.5-coder:14b",
        );
        await send(chat, "Add a notes file");
        const card = chat.getByRole("region", { name: "Proposed change to /NOTES.md" });
        await card.waitFor({ state: "visible", timeout: 30_000 });
        // While the edit waits for approval, pick the other model: Ollama's list says what each is.
        await box.click();
        await chat
          .getByRole("option", { name: /qwen2\.5-coder:14b.*33k context/ })
          .waitFor({ state: "visible", timeout: 30_000 });
        await ctx.screenshot("e2e-models-picker");
        await pickModel(chat, "llava:13b", /llava:13b.*4\.1k context.*reads images/);
        await card.getByRole("button", { name: "Approve" }).click();
        await chat.getByText("Done: NOTES.md is there.").waitFor({ state: "visible", timeout: 30_000 });
        assert.deepEqual(
          server.requests.map((r) => r.body.model),
          ["qwen2.5-coder:14b", "llava:13b"],
          "the next request of the running task went to the pick",
        );
        assert.equal(fs.readFileSync(path.join(ctx.session.workspaceDir, "NOTES.md"), "utf8"), "# Notes\n");
        // Kept for this workspace: after a window reload the box still shows the pick.
        await ctx.page.reload();
        chat = await openChat(ctx.page);
        await until(
          "the pick after the reload",
          async () => (await chat.getByRole("combobox", { name: "Model" }).inputValue()) === "llava:13b",
          60_000,
        );
        // Free text: a model the server does not list can still be typed.
        const again = chat.getByRole("combobox", { name: "Model" });
        await again.click();
        await again.fill("my-own-model");
        await again.press("Enter");
        server.push({ text: "typed model answered" });
        await send(chat, "hello");
        await chat.getByText("typed model answered").waitFor({ state: "visible", timeout: 30_000 });
        assert.equal(server.requests.at(-1)!.body.model, "my-own-model");
      });
    },
  },
  {
    name: "Models: a pasted image goes to a vision model; reasoning shows collapsed; calls written as text run",
    timeoutMs: 240_000,
    async run(ctx) {
      await withOllama(ctx, "qwen2.5-coder:14b", async (server) => {
        const chat = await openChat(ctx.page);
        // Pick the vision model from the list: Ollama says it reads images (and has no native tools).
        await pickModel(chat, "llava:13b", /llava:13b.*reads images/);
        await chat.getByText("paste or drop an image").waitFor({ state: "visible", timeout: 15_000 });
        server.push(
          {
            reasoning: "The picture is a red square, so I list the folder for context.",
            text: '<tool_call>{"name": "ls", "arguments": {"path": "/src"}}</tool_call>',
          },
          { text: "A red square; src has slugify.js and cli.js." },
        );
        // Paste a screenshot (a PNG the page draws) into the message box.
        await chat.getByRole("textbox", { name: "Message" }).click();
        await chat.evaluate(async () => {
          const canvas = document.createElement("canvas");
          canvas.width = canvas.height = 300;
          const g = canvas.getContext("2d")!;
          g.fillStyle = "#d22";
          g.fillRect(0, 0, 300, 300);
          const blob = await new Promise<Blob>((r) => canvas.toBlob((b) => r(b!), "image/png"));
          const dt = new DataTransfer();
          dt.items.add(new File([blob], "screenshot.png", { type: "image/png" }));
          document
            .getElementById("message-input")!
            .dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
        });
        await chat.getByRole("img", { name: "Image 1 to send" }).waitFor({ state: "visible", timeout: 15_000 });
        await send(chat, "What is in this screenshot?");
        await chat
          .getByText("A red square; src has slugify.js and cli.js.")
          .waitFor({ state: "visible", timeout: 30_000 });
        await chat.getByRole("img", { name: "Attached image 1" }).waitFor({ state: "visible", timeout: 5_000 });
        // The image went as an image part of the user message.
        const first = server.requests[0]!.body as {
          model: string;
          tools?: unknown;
          messages: { role: string; content: unknown }[];
        };
        assert.equal(first.model, "llava:13b");
        const user = first.messages.find((m) => m.role === "user" && Array.isArray(m.content)) as
          { content: { type: string; image_url?: { url: string } }[] } | undefined;
        assert.ok(user, "a user message with parts");
        assert.match(
          user.content.find((p) => p.type === "image_url")!.image_url!.url,
          /^data:image\/png;base64,iVBORw0KGgo/,
        );
        // Ollama said llava has no tool calling: its tools went in the prompt, and its text call ran.
        assert.equal(first.tools, undefined);
        await chat.getByText("Listing /src").first().waitFor({ state: "visible", timeout: 5_000 });
        await chat
          .getByText(/Fathom runs the tool calls this model writes as text\. Ran ls, written as text by llava:13b/)
          .waitFor({ state: "visible", timeout: 5_000 });
        assert.equal(await chat.getByText("<tool_call>").count(), 0, "the call is not shown as text");
        // The reasoning is there, collapsed.
        const thought = chat.getByText(/^Thought \(\d+ characters\)$/);
        await thought.waitFor({ state: "visible", timeout: 5_000 });
        assert.equal(
          await chat.getByText("The picture is a red square, so I list the folder for context.").isVisible(),
          false,
        );
        await thought.click();
        await chat
          .getByText("The picture is a red square, so I list the folder for context.")
          .waitFor({ state: "visible", timeout: 5_000 });
        assert.doesNotMatch(server.requests[1]!.rawBody, /list the folder for context/, "reasoning is not sent back");
        await ctx.screenshot("e2e-models-image-reasoning");
      });
    },
  },
];
