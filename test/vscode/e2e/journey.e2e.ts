// The whole journey in a real VS Code, once per wire format (OpenAI-compatible and Anthropic):
// a person asks Fathom to fix the sample project's failing test and drives everything through
// the UI by accessible names. The scripted model server (in this process) plays the model; its
// turns are decided from the requests, so the test also checks what the model was told.
//   1. the request goes in through "Message";
//   2. todos ("Todos" list), grep, read_file;
//   3. edit_file: the diff editor opens beside the chat without taking the focus from "Message",
//      the diff card appears, the person changes a line on the proposed side and approves; the
//      file on disk is exactly the approved text; the next request reports the person's change;
//   4. execute runs the tests in the integrated terminal "Fathom", output in the card, exit code 0;
//   5. a second edit is rejected with a reason that reaches the model; nothing is written;
//   6. todos all done, final answer rendered, tokens and cost in the header;
//   7. a second task is interrupted by a window reload and resumed.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Frame, Page } from "playwright-core";
import {
  startScriptedModelServer,
  type RecordedRequest,
  type ScriptedModelServer,
  type StaticTurn,
} from "../../support/scriptedModelServer.js";
import { openChat, send, setApiKeyInUI, setClipboard, until } from "../harness/chat.js";
import { writeUserSettings } from "../harness/codeServer.js";
import type { E2EContext, E2ETest } from "../harness/e2e.js";

type Wire = "openai" | "anthropic";

const WIRES: Record<
  Wire,
  { label: string; provider: string; model: string; baseUrl: (s: ScriptedModelServer) => string }
> = {
  openai: {
    label: "OpenAI-compatible",
    provider: "openai-compatible",
    model: "gpt-4.1",
    baseUrl: (s) => s.baseUrlOpenAI,
  },
  anthropic: {
    label: "Anthropic",
    provider: "anthropic",
    model: "claude-sonnet-5-5",
    baseUrl: (s) => s.baseUrlAnthropic,
  },
};

/** Workbench settings read only when the window loads: the terminal's DOM renderer lets the test read its text. */
export const journeySettings: Record<string, unknown> = { "terminal.integrated.gpuAcceleration": "off" };

const FIXED_LINE = ".replace(/^-+|-+$/g, ''); // trim dashes at both ends";
const BUGGY_LINE = ".replace(/^-/, ''); // bug on purpose: a trailing \"-\" is kept";
const PERSON_LINE = '* Turns a title into a URL slug, trimming dashes at both ends: "Hello, World!" -> "hello-world".';
const REJECT_REASON = "Keep the CLI output lower-case; only slugify needed fixing.";
const FINAL_ANSWER = "slugify now trims dashes at both ends, and both tests pass.";

/** A promise with its resolve function outside. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

function bodyText(r: RecordedRequest | undefined): string {
  return r ? r.rawBody : "";
}

/** Points Fathom at the scripted server through the user settings (before the view is opened). */
export async function startModelFor(ctx: E2EContext, wire: Wire): Promise<ScriptedModelServer> {
  const server = await startScriptedModelServer([]);
  const w = WIRES[wire];
  writeUserSettings(ctx.session.userDataDir, {
    "fathom.provider": w.provider,
    "fathom.baseUrl": w.baseUrl(server),
    "fathom.model": w.model,
  });
  return server;
}

/** The saved task (under the workspace's extension storage) contains `text`. */
function savedTaskContains(userDataDir: string, text: string): boolean {
  const root = path.join(userDataDir, "User", "workspaceStorage");
  const walk = (dir: string): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory() ? walk(p) : e.name.endsWith(".json") && fs.readFileSync(p, "utf8").includes(text))
        return true;
    }
    return false;
  };
  return walk(root);
}

/** The text the integrated terminal shows (DOM renderer), or '' when no terminal is visible. */
async function terminalText(page: Page): Promise<string> {
  return (
    await page
      .locator(".terminal-wrapper .xterm-rows")
      .allInnerTexts()
      .catch(() => [] as string[])
  ).join("\n");
}

async function focusedLabel(chat: Frame): Promise<string | null> {
  return chat.evaluate(() =>
    document.hasFocus() ? (document.activeElement?.getAttribute("aria-label") ?? null) : null,
  );
}

async function journey(ctx: E2EContext, wire: Wire): Promise<void> {
  const { page } = ctx;
  const shot = (name: string) => ctx.screenshot(`e2e-journey-${wire}-${name}`);
  const server = await startModelFor(ctx, wire);
  try {
    const file = (p: string) => path.join(ctx.session.workspaceDir, p);
    const original = fs.readFileSync(file("src/slugify.js"), "utf8");
    const cliOriginal = fs.readFileSync(file("src/cli.js"), "utf8");
    const proposed = original.replace(BUGGY_LINE, FIXED_LINE);
    assert.notEqual(proposed, original, "the fixture still has the bug line");
    const lines = proposed.split("\n");
    lines[1] = ` ${PERSON_LINE}`;
    const approvedText = lines.join("\n");

    const editGate = gate();
    const seen: Record<string, RecordedRequest> = {};
    const keep = (key: string, turn: StaticTurn) => (r: RecordedRequest) => ((seen[key] = r), turn);
    server.push(
      {
        toolCalls: [
          {
            name: "write_todos",
            arguments: {
              todos: [
                { content: "Find why the slugify test fails", status: "in_progress" },
                { content: "Fix slugify", status: "pending" },
                { content: "Run the tests", status: "pending" },
              ],
            },
          },
          { name: "grep", arguments: { pattern: "replace(", path: "/src", output_mode: "content" } },
        ],
      },
      keep("afterGrep", {
        toolCalls: [
          { name: "read_file", arguments: { file_path: "/src/slugify.js" } },
          { name: "read_file", arguments: { file_path: "/src/cli.js" } },
        ],
      }),
      async (r) => {
        seen.afterRead = r;
        await editGate.promise;
        return {
          text: "The second replace only trims a leading dash. I will trim both ends.",
          toolCalls: [
            {
              name: "edit_file",
              arguments: { file_path: "/src/slugify.js", old_string: BUGGY_LINE, new_string: FIXED_LINE },
            },
          ],
        };
      },
      keep("afterEdit", {
        toolCalls: [
          {
            name: "write_todos",
            arguments: {
              todos: [
                { content: "Find why the slugify test fails", status: "completed" },
                { content: "Fix slugify", status: "completed" },
                { content: "Run the tests", status: "in_progress" },
              ],
            },
          },
          { name: "execute", arguments: { command: "npm test" } },
        ],
      }),
      keep("afterExecute", {
        toolCalls: [
          {
            name: "edit_file",
            arguments: {
              file_path: "/src/cli.js",
              old_string: "console.log(slugify(words.join(' ')));",
              new_string: "console.log(slugify(words.join(' ')).toUpperCase());",
            },
          },
        ],
      }),
      keep("afterReject", {
        toolCalls: [
          {
            name: "write_todos",
            arguments: {
              todos: [
                { content: "Find why the slugify test fails", status: "completed" },
                { content: "Fix slugify", status: "completed" },
                { content: "Run the tests", status: "completed" },
              ],
            },
          },
        ],
      }),
      keep("final", { text: `**Fixed.** ${FINAL_ANSWER}`, chunkDelayMs: 5 }),
    );

    let chat = await openChat(page);
    if (wire === "anthropic") await setApiKeyInUI(page, "Anthropic", "sk-ant-scripted-e2e");

    // 1. The person asks in "Message".
    await send(chat, "The test for slugify fails. Find out why and fix it.");

    // 2. Todos, grep, read_file.
    const todos = chat.getByRole("list", { name: "Todos" });
    await todos.getByText("Find why the slugify test fails").waitFor({ state: "visible", timeout: 60_000 });
    await until("the model to ask for the edit (3 requests)", () => seen.afterRead, 60_000);
    assert.match(bodyText(seen.afterGrep), /slugify\.js:\d+:/, "the grep result (path:line:text) went to the model");
    assert.match(bodyText(seen.afterRead), /bug on purpose/, "the file read went to the model");
    assert.equal(await todos.getByRole("listitem").count(), 3);
    await shot("1-todos-read");

    // 3. The person is typing in "Message" when the edit arrives: the diff must not take the focus.
    const message = chat.getByRole("textbox", { name: "Message" });
    await message.click();
    await page.keyboard.type("draft");
    editGate.open();
    const card = chat.getByRole("region", { name: "Proposed change to /src/slugify.js" });
    await card.waitFor({ state: "visible", timeout: 60_000 });
    const diffEditor = page.locator(".editor-group-container .monaco-diff-editor").first();
    await diffEditor.waitFor({ state: "visible", timeout: 30_000 });
    await page
      .locator(".tabs-container .tab")
      .filter({ hasText: /slugify\.js.*Fathom's proposal/ })
      .first()
      .waitFor({ state: "visible", timeout: 10_000 });
    assert.equal(await focusedLabel(chat), "Message", "the focus stayed in the chat's Message box");
    await page.keyboard.type(" still typing");
    assert.equal(await message.inputValue(), "draft still typing", "keys still go to the Message box");
    await message.fill("");
    await shot("2-diff-beside");

    // The person changes one line on the proposed (right, editable) side, then approves.
    const modified = diffEditor.locator(".editor.modified");
    await modified.getByText(FIXED_LINE.slice(0, 20)).first().waitFor({ state: "visible", timeout: 10_000 });
    await modified.locator(".view-lines:not(.line-delete)").first().click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Home");
    await page.keyboard.press("Shift+End");
    await setClipboard(page, PERSON_LINE);
    await page.keyboard.press("Control+V");
    await modified.getByText("trimming dashes at both ends").first().waitFor({ state: "visible", timeout: 10_000 });
    // Only looked at, the proposal borrows JavaScript's highlighting; used, it is JavaScript.
    await page
      .locator('[id="status.editor.mode"]')
      .getByText("JavaScript", { exact: true })
      .waitFor({ state: "visible", timeout: 15_000 });
    await card.getByRole("button", { name: "Approve" }).click();
    await card.getByText("Approved with your changes").waitFor({ state: "visible", timeout: 30_000 });
    await until(
      "the approved text on disk",
      () => fs.readFileSync(file("src/slugify.js"), "utf8") === approvedText,
      30_000,
    );
    await until("the request after the edit", () => seen.afterEdit, 60_000);
    const afterEdit = bodyText(seen.afterEdit);
    assert.match(afterEdit, /The person changed your proposed content before approving it/);
    assert.ok(afterEdit.includes("trimming dashes at both ends"), "the person's line was reported to the model");
    await shot("3-approved");

    // 4. execute: asks, runs in the "Fathom" terminal, output in the card, exit code.
    const exec = chat.getByRole("article", { name: /npm test/ }).first();
    await exec.getByRole("button", { name: "Approve" }).click({ timeout: 60_000 });
    const output = chat.getByRole("group", { name: "Output of npm test" });
    await output.getByText(/pass 2/).waitFor({ state: "visible", timeout: 90_000 });
    await exec.getByText("exit code 0").waitFor({ state: "visible", timeout: 60_000 });
    await until(
      "the command in the integrated terminal",
      async () => /npm test/.test(await terminalText(page)),
      30_000,
    );
    await page
      .locator(".terminal-tabs-entry, .single-terminal-tab, .panel .composite.title")
      .filter({ hasText: "Fathom" })
      .first()
      .waitFor({ state: "visible", timeout: 10_000 });
    await until("the request after execute", () => seen.afterExecute, 60_000);
    assert.match(bodyText(seen.afterExecute), /pass 2/);
    assert.match(bodyText(seen.afterExecute), /[Ee]xit code:? 0/);
    await shot("4-tests-ran");

    // 5. The second edit is rejected with a reason; nothing is written; the model is told why.
    const second = chat.getByRole("region", { name: "Proposed change to /src/cli.js" });
    await second.waitFor({ state: "visible", timeout: 60_000 });
    await second.getByRole("textbox", { name: "Reason for rejecting (optional)" }).fill(REJECT_REASON);
    await second.getByRole("button", { name: "Reject" }).click();
    await second.getByText(`Rejected: “${REJECT_REASON}”`).waitFor({ state: "visible", timeout: 30_000 });
    await until("the request after the rejection", () => seen.afterReject, 60_000);
    assert.ok(bodyText(seen.afterReject).includes(REJECT_REASON), "the reason reached the model");
    assert.equal(fs.readFileSync(file("src/cli.js"), "utf8"), cliOriginal, "nothing was written to /src/cli.js");

    // 6. Todos all done, the final answer, tokens and cost in the header.
    await chat.getByText(FINAL_ANSWER).waitFor({ state: "visible", timeout: 60_000 });
    await chat.getByRole("strong").filter({ hasText: "Fixed." }).first().waitFor({ state: "visible", timeout: 10_000 });
    await until("all todos done", async () => (await todos.getByText("Done").count()) === 3, 30_000);
    await chat.getByTitle("Tokens sent to and received from the model").waitFor({ state: "visible", timeout: 10_000 });
    const cost = await chat.getByTitle("Estimated cost of this task").innerText({ timeout: 10_000 });
    assert.match(cost, /\$\d/, `the header shows a cost (got "${cost}")`);
    // The model shows in the header's Model box.
    assert.equal(await chat.getByRole("combobox", { name: "Model" }).inputValue(), WIRES[wire].model);
    assert.equal(fs.readFileSync(file("src/slugify.js"), "utf8"), approvedText);
    await shot("5-done");

    // 7. A second task, interrupted by a window reload, resumes.
    const SECOND = "Also add an --upper flag to the CLI.";
    const HALF = "Adding the --upper flag: first the argument parsing in /src/cli.js";
    server.push(
      {
        toolCalls: [
          {
            name: "write_todos",
            arguments: {
              todos: [
                { content: "Add --upper to the CLI", status: "in_progress" },
                { content: "Test --upper", status: "pending" },
              ],
            },
          },
          { name: "read_file", arguments: { file_path: "/src/cli.js" } },
        ],
      },
      { fault: "stall", text: HALF },
    );
    await send(chat, SECOND);
    await chat.getByText(HALF).waitFor({ state: "visible", timeout: 60_000 });
    await until(
      "the partial answer saved with the task",
      () => savedTaskContains(ctx.session.userDataDir, HALF),
      30_000,
      200,
    );
    await page.reload();
    chat = await openChat(page);
    const resume = chat.getByRole("button", { name: "Resume" });
    await resume.waitFor({ state: "visible", timeout: 90_000 });
    await chat.getByText(HALF).waitFor({ state: "visible", timeout: 10_000 });
    await chat
      .getByRole("list", { name: "Todos" })
      .getByText("Add --upper to the CLI")
      .waitFor({ state: "visible", timeout: 10_000 });
    await shot("6-interrupted");
    let resumed: RecordedRequest | undefined;
    server.push((r) => ((resumed = r), { text: "Resumed: --upper is added to the CLI." }));
    await resume.click();
    await chat.getByText("Resumed: --upper is added to the CLI.").waitFor({ state: "visible", timeout: 60_000 });
    const resumedBody = bodyText(resumed);
    assert.ok(resumedBody.includes("--upper flag to the CLI"), "the resumed request carries the second task");
    assert.ok(resumedBody.includes("usage: slug"), "and the file it read before the reload");
    await shot("7-resumed");
  } finally {
    await server.close();
  }
}

export const tests: E2ETest[] = (["openai", "anthropic"] as const).map((wire) => ({
  name: `Journey (${WIRES[wire].label}): fix the failing test — todos, diff edited and approved, tests in the terminal, a rejection, reload and resume`,
  timeoutMs: 300_000,
  settings: journeySettings,
  run: (ctx: E2EContext) => journey(ctx, wire),
}));
