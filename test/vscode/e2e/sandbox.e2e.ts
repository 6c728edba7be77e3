// The OS sandbox in the real VS Code UI (issue 19), with a scratch HOME: a command run unasked
// (fathom.sandbox.autoApprove) cannot read a canary in ~/.ssh; its connection to a domain nobody
// allowed is asked about in VS Code's notification, once per task: "Allow for This Task" lets
// it (and the task's later connections) through, and in a new task "Deny" refuses it, which the
// model is told.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as http from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import { sandboxUnavailable } from "../../../src/core/executor/sandbox.js";
import { openChat, send, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";
import { repoRoot } from "../harness/paths.js";

const home = fs.mkdtempSync(path.join(os.tmpdir(), "fathom-e2e-home-"));
const proxiedGet = path.join(repoRoot, "test", "support", "proxiedGet.mjs");

/** The result the model got for the tool call of the request after `from`. */
function toolResult(requests: { body: { messages?: unknown } }[], from: number): string {
  const messages = (requests[from + 1]?.body.messages as { role: string; content: string }[] | undefined) ?? [];
  return messages.filter((m) => m.role === "tool").at(-1)?.content ?? "";
}

export const tests: E2ETest[] = [
  {
    name: "Sandbox: a secret in ~/.ssh stays unread; a domain is asked about once per task in a notification (allow, then deny)",
    env: { HOME: home },
    settings: { "fathom.sandbox.autoApprove": true },
    async run(ctx) {
      if (process.platform !== "linux" || sandboxUnavailable()) return;
      fs.mkdirSync(path.join(home, ".ssh"), { recursive: true });
      fs.writeFileSync(path.join(home, ".ssh", "id_canary"), "CANARY-E2E-3a9d\n");
      const hits: string[] = [];
      const web = http.createServer((req, res) => (hits.push(req.url ?? ""), res.end("hello from the host")));
      await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
      const url = (p: string) => `http://127.0.0.1:${(web.address() as { port: number }).port}/${p}`;
      try {
        await withModel(ctx, async (server) => {
          const chat = await openChat(ctx.page);
          let from = server.requests.length;
          server.push(
            {
              toolCalls: [
                {
                  id: "s1",
                  name: "execute",
                  arguments: { command: `cat ~/.ssh/id_canary; node ${proxiedGet} ${url("first")}` },
                },
              ],
            },
            {
              toolCalls: [{ id: "s2", name: "execute", arguments: { command: `node ${proxiedGet} ${url("second")}` } }],
            },
            { text: "Fetched twice." },
          );
          await send(chat, "Fetch the page");
          const allow = ctx.page.getByRole("button", { name: "Allow for This Task" });
          await allow.waitFor({ state: "visible", timeout: 90_000 });
          await ctx.page
            .getByText("A sandboxed command wants to connect to 127.0.0.1")
            .first()
            .waitFor({ timeout: 5_000 });
          await ctx.screenshot("e2e-sandbox-domain");
          await allow.click();
          await chat.getByText("Fetched twice.").waitFor({ state: "visible", timeout: 60_000 });
          const first = toolResult(server.requests, from);
          assert.doesNotMatch(first, /CANARY-E2E/);
          assert.match(first, /status 200 hello from the host/);
          assert.match(first, /The sandbox refused: a read of .*\.ssh\/id_canary/);
          assert.match(toolResult(server.requests, from + 1), /status 200/);
          assert.deepEqual(
            hits,
            ["/first", "/second"],
            "the second connection of the task was not let through without asking",
          );

          // A new task asks again; denied, the model is told what was refused.
          await chat.getByRole("button", { name: "New task" }).click();
          from = server.requests.length;
          server.push(
            {
              toolCalls: [{ id: "s3", name: "execute", arguments: { command: `node ${proxiedGet} ${url("third")}` } }],
            },
            { text: "Refused." },
          );
          await send(chat, "Fetch it again");
          const deny = ctx.page.getByRole("button", { name: "Deny" });
          await deny.waitFor({ state: "visible", timeout: 90_000 });
          await deny.click();
          await chat.getByText("Refused.").waitFor({ state: "visible", timeout: 60_000 });
          assert.deepEqual(hits, ["/first", "/second"]);
          assert.match(toolResult(server.requests, from), /status 403[\s\S]*The sandbox refused: .*127\.0\.0\.1/);
        });
      } finally {
        web.close();
      }
    },
  },
];
