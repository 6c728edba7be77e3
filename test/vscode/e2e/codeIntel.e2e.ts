// Code intelligence in a real VS Code (issue 41): a scripted model asks the built-in TypeScript
// language features through Fathom's tools (find_references and find_definition by a symbol's
// name, hover, document_symbols, get_problems), then renames a function with rename_symbol: each
// file the TypeScript server's rename changes comes as its own proposed change in the chat,
// approved on its card, and written only then. A rename reaching a file outside the workspace
// (a symlinked folder) is refused whole.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { openChat, openFileWithQuickOpen, send, until, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";
import type { RecordedRequest } from "../../support/scriptedModelServer.js";

const GREETER = `export function greet(name: string): string {\n  return "Hello, " + name;\n}\n`;
const APP = `import { greet } from "./greeter";\n\nconsole.log(greet("a"), greet("b"));\n`;
const GLOBALS = `function helper(x: number): number {\n  return x * 2;\n}\n`;
const BROKEN = `export const count: number = "three";\n`;

const openFile = openFileWithQuickOpen;

/** The tool results of a request, by the call's id. */
function results(request: RecordedRequest | undefined): Map<string, string> {
  const messages = (request?.body.messages ?? []) as { role: string; tool_call_id?: string; content?: unknown }[];
  return new Map(
    messages
      .filter((m) => m.role === "tool")
      .map((m) => [m.tool_call_id ?? "", typeof m.content === "string" ? m.content : JSON.stringify(m.content)]),
  );
}

export const tests: E2ETest[] = [
  {
    name: "Code intelligence: TypeScript answers the lookups, and a rename is one approved card per file",
    timeoutMs: 300_000,
    prepare(ws) {
      fs.writeFileSync(
        path.join(ws, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: { strict: true, target: "es2020", module: "commonjs" },
          include: ["src/**/*.ts"],
        }),
      );
      fs.writeFileSync(path.join(ws, "src/greeter.ts"), GREETER);
      fs.writeFileSync(path.join(ws, "src/app.ts"), APP);
      fs.writeFileSync(path.join(ws, "src/broken.ts"), BROKEN);
    },
    async run(ctx) {
      const { page } = ctx;
      const ws = ctx.session.workspaceDir;
      await withModel(ctx, async (server) => {
        // The TypeScript server is up once it reports the error in an open file.
        await openFile(page, "broken.ts");
        await page
          .locator(".editor-group-container .monaco-editor .squiggly-error")
          .first()
          .waitFor({ state: "attached", timeout: 120_000 });
        server.push(
          {
            toolCalls: [
              { id: "refs", name: "find_references", arguments: { path: "/src/greeter.ts", symbol: "greet" } },
              { id: "def", name: "find_definition", arguments: { path: "/src/app.ts", line: 3, symbol: "greet" } },
              { id: "hov", name: "hover", arguments: { path: "/src/app.ts", line: 3, column: 13 } },
              { id: "syms", name: "document_symbols", arguments: { path: "/src/greeter.ts" } },
              { id: "probs", name: "get_problems", arguments: {} },
            ],
          },
          {
            toolCalls: [
              {
                id: "ren",
                name: "rename_symbol",
                arguments: { path: "/src/greeter.ts", symbol: "greet", new_name: "welcome" },
              },
            ],
          },
          { text: "Renamed greet to welcome." },
        );
        const chat = await openChat(page);
        await send(chat, "Rename greet to welcome");

        // Each file of the rename is its own card, one at a time; nothing is written before its approval.
        const approved: string[] = [];
        for (let i = 0; i < 2; i++) {
          const card = chat
            .getByRole("region", { name: /^Proposed change to / })
            .filter({ has: chat.getByRole("button", { name: "Approve" }) })
            .first();
          await card.waitFor({ state: "visible", timeout: 90_000 });
          const file = (await card.getAttribute("aria-label"))!.replace("Proposed change to ", "");
          assert.match(fs.readFileSync(path.join(ws, file), "utf8"), /\bgreet\b/, `${file} unchanged before approval`);
          await ctx.screenshot(`e2e-code-intel-card-${i + 1}`);
          await card.getByRole("button", { name: "Approve" }).click();
          await until(`${file} written`, () => !/\bgreet\b/.test(fs.readFileSync(path.join(ws, file), "utf8")), 30_000);
          // Its card has shown the decision before the next card is looked for (else the same card,
          // still painted with its button, would be found again).
          await chat
            .getByRole("region", { name: `Proposed change to ${file}` })
            .getByRole("button", { name: "Approve" })
            .waitFor({ state: "hidden", timeout: 30_000 });
          approved.push(file);
        }
        assert.deepEqual(approved.sort(), ["/src/app.ts", "/src/greeter.ts"]);
        await chat.getByText("Renamed greet to welcome.").waitFor({ state: "visible", timeout: 60_000 });
        await chat.getByRole("button", { name: "Cancel" }).waitFor({ state: "hidden", timeout: 30_000 });

        const looked = results(server.requests[1]);
        const refs = looked.get("refs") ?? "";
        assert.match(refs, /^References to \/src\/greeter\.ts:1:17 .*: 4 places in 2 files/, refs);
        assert.match(
          refs,
          /\/src\/app\.ts\n {2}1:10: import \{ greet \} from "\.\/greeter";\n {2}3:13: console\.log\(greet/,
        );
        assert.match(refs, /\/src\/greeter\.ts\n {2}1:17: export function greet\(name: string\): string \{/);
        assert.match(
          looked.get("def") ?? "",
          /Definition of \/src\/app\.ts:3:13 .*\n\/src\/greeter\.ts\n {2}1:17: export function greet/,
        );
        assert.match(looked.get("hov") ?? "", /```typescript\n\(alias\) greet\(name: string\): string/);
        assert.match(looked.get("syms") ?? "", /Symbols in \/src\/greeter\.ts \(1\):\nfunction greet/);
        assert.match(
          looked.get("probs") ?? "",
          /Problems in the workspace \(1 error\):\n\/src\/broken\.ts:1:14 error 2322 \(ts\): Type 'string' is not assignable to type 'number'\./,
        );

        const renamed = results(server.requests[2]).get("ren") ?? "";
        assert.match(renamed, /^Renamed `greet` to `welcome` in 2 files\./, renamed);
        assert.equal(fs.readFileSync(path.join(ws, "src/greeter.ts"), "utf8"), GREETER.replace("greet", "welcome"));
        assert.equal(fs.readFileSync(path.join(ws, "src/app.ts"), "utf8"), APP.replace(/\bgreet\b/g, "welcome"));
        await ctx.screenshot("e2e-code-intel-renamed");
      });
    },
  },
  {
    name: "Code intelligence: a rename that would change a file outside the workspace is refused whole",
    timeoutMs: 240_000,
    prepare(ws) {
      // A folder outside the workspace, linked in and part of the TypeScript project: its file
      // calls a global function of the workspace's, so renaming that function reaches it.
      const outside = fs.mkdtempSync(path.join(path.dirname(ws), "outside-"));
      fs.writeFileSync(path.join(outside, "other.ts"), `const six = helper(3);\n`);
      fs.symlinkSync(outside, path.join(ws, "linked"));
      fs.writeFileSync(
        path.join(ws, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { strict: true }, include: ["src/**/*.ts", "linked/**/*.ts"] }),
      );
      fs.writeFileSync(path.join(ws, "src/globals.ts"), GLOBALS);
    },
    async run(ctx) {
      const { page } = ctx;
      const ws = ctx.session.workspaceDir;
      await withModel(ctx, async (server) => {
        await openFile(page, "globals.ts");
        server.push(
          {
            toolCalls: [
              { id: "refs", name: "find_references", arguments: { path: "/src/globals.ts", symbol: "helper" } },
            ],
          },
          {
            toolCalls: [
              {
                id: "ren",
                name: "rename_symbol",
                arguments: { path: "/src/globals.ts", symbol: "helper", new_name: "double" },
              },
            ],
          },
          { text: "Could not rename it." },
        );
        const chat = await openChat(page);
        await send(chat, "Rename helper");
        await chat.getByText("Could not rename it.").waitFor({ state: "visible", timeout: 120_000 });
        const refs = results(server.requests[1]).get("refs") ?? "";
        // TypeScript names the file by its real path (outside) or the link's (a file Fathom may not read): not shown either way.
        assert.match(refs, /^References to \/src\/globals\.ts:1:10 .*: 1 place in \/src\/globals\.ts/, refs);
        assert.match(
          refs,
          /outside the workspace, not shown: other\.ts|you may not read without asking, not shown: \/linked\/other\.ts/,
          refs,
        );
        assert.doesNotMatch(refs, /const six/, "the outside file's text is never shown");
        const ren = results(server.requests[2]).get("ren") ?? "";
        assert.match(
          ren,
          /^Not renamed: the rename would also change 1 file (outside the workspace \(other\.ts\)|you may not read \(\/linked\/other\.ts\))/,
          ren,
        );
        assert.equal(await chat.getByRole("region", { name: /^Proposed change to / }).count(), 0, "nothing proposed");
        assert.equal(fs.readFileSync(path.join(ws, "src/globals.ts"), "utf8"), GLOBALS);
        await until(
          "the task to end",
          async () => (await chat.getByRole("button", { name: "Cancel" }).count()) === 0,
          30_000,
        );
      });
    },
  },
];
