// The Fathom view in a real VS Code (code-server in headless Chromium): the activity-bar icon
// is there, the view opens, with no provider configured it says how to set one up, and once a
// model is configured the message sent before (queued, waiting for set-up) goes to the extension
// host, the model, and back into the view.
import * as assert from "node:assert/strict";
import { activityBarItem } from "../harness/browser.js";
import { startScriptedModelServer } from "../../support/scriptedModelServer.js";
import { editUserSettingsInEditor, openChat, send } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";

export const tests: E2ETest[] = [
  {
    name: "Fathom view: activity-bar icon, first-run setup, a message round-trips",
    async run(ctx) {
      const { page } = ctx;
      await activityBarItem(page, "Fathom").waitFor({ state: "visible", timeout: 60_000 });
      let chat = await openChat(page);
      // No key and the official endpoint: the view offers the command instead of failing on send.
      await chat
        .getByRole("button", { name: /Set API Key/ })
        .first()
        .waitFor({ state: "visible", timeout: 30_000 });
      await ctx.screenshot("e2e-first-run");
      // A message sent before set-up waits, and says what it waits for.
      await send(chat, "ping");
      await chat
        .getByRole("region", { name: "Queued (1), waiting for an API key" })
        .getByText("ping")
        .waitFor({ state: "visible", timeout: 30_000 });

      const server = await startScriptedModelServer([
        { text: "pong: ping received by the scripted model", chunkDelayMs: 10 },
      ]);
      try {
        // Configure a model as a person would; the view notices without a reload.
        await editUserSettingsInEditor(ctx, {
          "fathom.provider": "openai-compatible",
          "fathom.baseUrl": server.baseUrlOpenAI,
          "fathom.model": "scripted-model",
        });
        chat = await openChat(page);
        await chat
          .getByRole("button", { name: /Set API Key/ })
          .first()
          .waitFor({ state: "hidden", timeout: 30_000 });
        // The queued message goes out by itself once the model is set up.
        await chat
          .getByText("pong: ping received by the scripted model")
          .waitFor({ state: "visible", timeout: 30_000 });
        assert.match(JSON.stringify(server.requests[0]?.body), /ping/, "the model received the message");
        await ctx.screenshot("e2e-roundtrip");
      } finally {
        await server.close();
      }
    },
  },
];
