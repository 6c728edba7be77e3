// When things go wrong, in a real VS Code (OpenAI-compatible wire, scripted model server):
// "Cancel" while the answer streams and while a command runs; a 401 shows a banner that says to
// set the key (and its button sets it); a 429 followed by an answer recovers without the person.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { RecordedRequest } from "../../support/scriptedModelServer.js";
import { faults } from "../../support/scriptedModelServer.js";
import { enterApiKey, openChat, send, until } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";
import { journeySettings, startModelFor } from "./journey.e2e.js";

const TICKER = `node -e "let i=0;setInterval(()=>{i++;require('fs').appendFileSync('ticks.txt','x');console.log('tick '+i)},300)"`;

export const tests: E2ETest[] = [
  {
    name: "Faults: 401 asks for the key, 429 recovers by itself, Cancel stops a streaming answer and a running command",
    timeoutMs: 240_000,
    settings: journeySettings,
    async run(ctx) {
      const { page } = ctx;
      const shot = (name: string) => ctx.screenshot(`e2e-faults-${name}`);
      const server = await startModelFor(ctx, "openai");
      try {
        const chat = await openChat(page);
        const sendButton = chat.getByRole("button", { name: "Send" });
        const cancel = chat.getByRole("button", { name: "Cancel" });

        // 401: a banner that says to set the key, with the button that does it.
        server.push(faults.unauthorized());
        await send(chat, "hello");
        const banner = chat.getByRole("alert").filter({ hasText: /API key was refused \(401\).*Set API Key/ });
        await banner.waitFor({ state: "visible", timeout: 60_000 });
        await shot("401-banner");
        assert.equal(
          await banner.getByRole("button", { name: "Retry" }).count(),
          0,
          "no Retry: the same key would be refused again",
        );
        // A key stored from the banner continues the task by itself, with that key.
        server.push({ text: "Hello with the new key." });
        await banner.getByRole("button", { name: "Set API Key" }).click();
        await enterApiKey(page, "OpenAI-compatible", "sk-e2e-key");
        await chat.getByText("Hello with the new key.").waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(server.requests.at(-1)?.headers.authorization, "Bearer sk-e2e-key");

        // 429 then an answer: retried by itself (honouring retry-after), no banner, with the new key.
        server.push(faults.rateLimited({ ms: 300 }), { text: "Recovered after the rate limit." });
        const before = server.requests.length;
        await send(chat, "hello again");
        await chat.getByText("Recovered after the rate limit.").waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(server.requests.length, before + 2, "one 429, one retry");
        assert.equal(
          server.requests.at(-1)?.headers.authorization,
          "Bearer sk-e2e-key",
          "the key set from the banner is used",
        );
        assert.equal(await chat.getByRole("alert").count(), 0, "no error banner after recovering");
        await shot("429-recovered");

        // Cancel while the answer streams: the stream is dropped, the rest never shows.
        const words = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
        server.push({ text: `Streaming slowly: ${words} THE-END`, chunkDelayMs: 120 });
        await send(chat, "tell me a long story");
        await chat.getByText(/Streaming slowly: word0/).waitFor({ state: "visible", timeout: 60_000 });
        await cancel.click();
        await sendButton.waitFor({ state: "visible", timeout: 30_000 });
        const streamed = server.requests.at(-1)!;
        await until(
          "the model stream to be closed by Fathom",
          () => streamed.lastChunkAt === undefined && server.requests.length === before + 3,
          10_000,
        );
        assert.equal(await chat.getByText(/THE-END/).count(), 0, "the rest of the answer never shows");
        await shot("cancel-streaming");

        // Cancel while a command runs: output streams into the card, then the command stops.
        let afterCancel: RecordedRequest | undefined;
        server.push(
          { toolCalls: [{ name: "execute", arguments: { command: TICKER } }] },
          (r) => ((afterCancel = r), { text: "unexpected" }),
        );
        await send(chat, "run the ticker");
        const card = chat.getByRole("article", { name: /Running/ }).last();
        await card.getByRole("button", { name: "Approve" }).click({ timeout: 60_000 });
        const output = chat.getByRole("group", { name: /^Output of node -e/ });
        await output.getByText("tick 2").waitFor({ state: "visible", timeout: 60_000 });
        await output.getByText("tick 4").waitFor({ state: "visible", timeout: 30_000 }); // still streaming
        await shot("command-running");
        await cancel.click();
        await sendButton.waitFor({ state: "visible", timeout: 30_000 });
        const ticks = path.join(ctx.session.workspaceDir, "ticks.txt");
        // The process is gone: the file stops growing (checked over 2 s, about 6 ticks).
        const size = () => fs.statSync(ticks).size;
        let last = size();
        let stableSince = Date.now();
        await until(
          "the command to stop writing",
          () => {
            const now = size();
            if (now !== last) {
              last = now;
              stableSince = Date.now();
            }
            return Date.now() - stableSince > 2_000;
          },
          20_000,
          200,
        );
        assert.equal(await chat.getByText("running", { exact: true }).count(), 0, "no card still says running");
        assert.equal(afterCancel, undefined, "the model was not called after the cancel");
        await shot("cancel-command");
      } finally {
        await server.close();
      }
    },
  },
];
