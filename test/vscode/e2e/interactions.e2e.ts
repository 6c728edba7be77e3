// Asking, steering and planning in a real VS Code (OpenAI-compatible wire, scripted model server):
// the model's question answered by a button; a message sent while a command runs reaches the
// next request; a plan made in Plan mode, edited in its card and started; a page fetched from
// 127.0.0.1, which the person's own allowed domains name (the only way a loopback page is read).
import * as assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { RecordedRequest } from "../../support/scriptedModelServer.js";
import { openChat, send, until } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";
import { journeySettings, startModelFor } from "./journey.e2e.js";

type Message = { role: string; content: string };
const messagesOf = (r: RecordedRequest | undefined): Message[] => (r?.body?.messages ?? []) as Message[];
const toolNamesOf = (r: RecordedRequest | undefined): string[] =>
  ((r?.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const SLOW = `node -e "console.log('started');setTimeout(()=>console.log('finished'),4000)"`;
const PLAN = "## Goal\nA greeting.\n## Steps\n1. Write hello.txt\n2. Check it\n## Files\n- hello.txt\n## Risks\n- none";

export const tests: E2ETest[] = [
  {
    name: "Interactions: a question answered by a button, a message sent while a command runs, a plan edited and started, a fetched page",

    timeoutMs: 300_000,
    // The person's own allowed domains name 127.0.0.1: the explicit allowance a loopback page needs.
    settings: { ...journeySettings, "fathom.sandbox.allowedDomains": ["127.0.0.1"] },
    async run(ctx) {
      const { page } = ctx;
      const shot = (name: string) => ctx.screenshot(`e2e-interactions-${name}`);
      const server = await startModelFor(ctx, "openai");
      // A docs page on loopback: fetching it needs the person's own allowance of 127.0.0.1 (set below).
      const docs = createServer((_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          "<html><head><title>Widget docs</title></head><body><article><h1>Widget API</h1><p>Call widget.spin() to spin the widget; it returns a promise that settles when the widget stops. This paragraph is the page's article.</p></article></body></html>",
        );
      });
      await new Promise<void>((r) => docs.listen(0, "127.0.0.1", r));
      const docsUrl = `http://127.0.0.1:${(docs.address() as AddressInfo).port}/widget`;
      try {
        const chat = await openChat(page);

        // The model asks; the person answers with a button; the answer is the tool result.
        let afterAnswer: RecordedRequest | undefined;
        server.push(
          {
            toolCalls: [
              { name: "ask_user", arguments: { question: "Which file should I change?", choices: ["a.txt", "b.txt"] } },
            ],
          },
          (r) => ((afterAnswer = r), { text: "Changing b.txt then." }),
        );
        await send(chat, "change the file");
        const question = chat.getByRole("group", { name: "Question from Fathom" });
        await question.getByText("Which file should I change?").waitFor({ state: "visible", timeout: 60_000 });
        await shot("question");
        await question.getByRole("button", { name: "b.txt" }).click();
        await chat.getByText("Changing b.txt then.").waitFor({ state: "visible", timeout: 60_000 });
        assert.equal(messagesOf(afterAnswer).find((m) => m.role === "tool")?.content, "The person answered: b.txt");
        await question.getByText("Your answer: b.txt").waitFor({ state: "visible", timeout: 10_000 });

        // Send now while a command runs: the next request carries the message, after the command's result.
        let afterSteer: RecordedRequest | undefined;
        server.push(
          { toolCalls: [{ name: "execute", arguments: { command: SLOW } }] },
          (r) => ((afterSteer = r), { text: "Noted: tabs from now on." }),
        );
        await send(chat, "run the slow command");
        const card = chat.getByRole("article", { name: /Running node -e/ }).last();
        await card.getByRole("button", { name: "Approve" }).click({ timeout: 60_000 });
        await chat
          .getByRole("group", { name: /^Output of node -e/ })
          .getByText("started")
          .waitFor({ state: "visible", timeout: 60_000 });
        const box = chat.getByRole("textbox", { name: "Message" });
        await box.fill("use tabs, not spaces");
        await box.press("Enter");
        await shot("steer-sent");
        await chat.getByText("Noted: tabs from now on.").waitFor({ state: "visible", timeout: 60_000 });
        const sent = messagesOf(afterSteer);
        assert.deepEqual(
          sent.slice(-2).map((m) => m.role),
          ["tool", "user"],
          "the message follows the command result",
        );
        assert.equal(sent.at(-1)?.content, "use tabs, not spaces");
        assert.match(sent.at(-2)?.content ?? "", /finished/, "delivered after the command ended");
        await chat.getByText("sent while it worked").waitFor({ state: "visible", timeout: 10_000 });
        await shot("steer-delivered");

        // Plan mode: only tools that change nothing; the Plan card edited in place and started.
        const before = server.requests.length;
        let started: RecordedRequest | undefined;
        server.push({ text: PLAN }, (r) => ((started = r), { text: "Plan carried out." }));
        await chat.getByRole("button", { name: "Plan", exact: true }).click();
        await send(chat, "plan a greeting file");
        const plan = chat.getByRole("article", { name: "Plan" });
        await plan.getByText("Write hello.txt").waitFor({ state: "visible", timeout: 60_000 });
        const planTools = toolNamesOf(server.requests[before]);
        assert.ok(
          planTools.includes("read_file") && !planTools.includes("write_file") && !planTools.includes("execute"),
          `plan tools: ${planTools.join(", ")}`,
        );
        await plan.getByRole("button", { name: "Edit" }).click();
        await plan
          .getByRole("textbox", { name: "Edit the plan" })
          .fill(PLAN.replace("2. Check it", "2. Check it\n3. Say hello"));
        await shot("plan-edited");
        await plan.getByRole("button", { name: "Start" }).click();
        await chat.getByText("Plan carried out.").waitFor({ state: "visible", timeout: 60_000 });
        await until("the started request", () => started);
        assert.ok(toolNamesOf(started).includes("write_file"), "Act offers the write tools");
        assert.match(messagesOf(started).at(-1)?.content ?? "", /3\. Say hello/);
        await chat.getByText("Say hello").first().waitFor({ state: "visible", timeout: 10_000 });
        await shot("plan-started");

        // A fetched page: allowed by the person's settings, so not asked; its card holds the page as text.
        let afterFetch: RecordedRequest | undefined;
        server.push(
          { toolCalls: [{ name: "web_fetch", arguments: { url: docsUrl } }] },
          (r) => ((afterFetch = r), { text: "widget.spin() returns a promise." }),
        );
        await chat.getByRole("button", { name: "Act", exact: true }).click();
        await send(chat, "how does widget.spin work? read the docs");
        const fetchCard = chat.getByRole("article", { name: /Fetching http:\/\/127\.0\.0\.1/ }).last();
        await fetchCard.waitFor({ state: "visible", timeout: 60_000 });
        await chat.getByText("widget.spin() returns a promise.").waitFor({ state: "visible", timeout: 60_000 });
        // The conversation's last tool result (the earlier ones are the question's and the command's).
        const fetched =
          messagesOf(afterFetch)
            .filter((m) => m.role === "tool")
            .at(-1)?.content ?? "";
        assert.match(fetched, new RegExp(`^URL: ${docsUrl.replace(/[.?]/g, "\\$&")}`));
        assert.match(fetched, /# Widget API/);
        await fetchCard.getByRole("button", { name: /Fetching/ }).click();
        await fetchCard
          .getByRole("group", { name: "Result" })
          .getByText(/Widget API/)
          .waitFor({ state: "visible", timeout: 10_000 });
        await shot("fetched-page");
      } finally {
        docs.close();
        await server.close();
      }
    },
  },
];
