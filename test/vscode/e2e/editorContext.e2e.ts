// Fathom from where people work, in a real VS Code: a selection and an Explorer file as chips
// (Ctrl+' and the context menu), a failed command's output from the terminal's context menu,
// and a TypeScript error's lightbulb → Fix with Fathom, whose proposed fix is approved with
// Ctrl+Enter in the diff. Every chip's text reaches the scripted model in the first request.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import type { Frame, Page } from "playwright-core";
import { openChat, openFileWithQuickOpen, runCommand, until, withScriptedModel as withModel } from "../harness/chat.js";
import type { E2ETest } from "../harness/e2e.js";

/** Opens a workspace file with Quick Open and puts the cursor in its editor. */
async function openFile(page: Page, name: string): Promise<void> {
  await openFileWithQuickOpen(page, name);
  await page.locator(".editor-group-container .monaco-editor .view-lines").first().click();
}

/** Selects whole lines `from`..`to` (1-based) in the active editor with the keyboard. */
async function selectLines(page: Page, from: number, to: number): Promise<void> {
  await page.keyboard.press("Control+G");
  await page.locator(".quick-input-widget input").waitFor({ state: "visible", timeout: 10_000 });
  await page.keyboard.type(String(from));
  await page.keyboard.press("Enter");
  await page.keyboard.press("Home");
  for (let i = from; i <= to; i += 1) await page.keyboard.press("Shift+ArrowDown");
}

/**
 * Picks an item of the context menu just opened: hovered (which selects it in VS Code's menus)
 * and Enter, after a moment (a click right as the menu opens can be taken for the right-click's
 * release and ignored), then waits for the menu to close.
 */
async function pickMenuItem(page: Page, label: string): Promise<void> {
  const item = page.locator(".context-view .monaco-menu .action-label").filter({ hasText: label }).first();
  await item.waitFor({ state: "visible", timeout: 15_000 });
  await page.waitForTimeout(300);
  await item.hover();
  await page.keyboard.press("Enter");
  await page.locator(".context-view .monaco-menu").waitFor({ state: "detached", timeout: 10_000 });
}

const chipList = (chat: Frame) => chat.getByRole("list", { name: /^Attached to the next message/ });

export const tests: E2ETest[] = [
  {
    name: "editor context: Ctrl+' adds the selection, the Explorer adds a file, both reach the model",
    timeoutMs: 240_000,
    async run(ctx) {
      const { page } = ctx;
      await withModel(ctx, async (server) => {
        server.push({ text: "It lower-cases the title and joins words with dashes.", chunkDelayMs: 5 });
        let chat = await openChat(page);
        await openFile(page, "slugify.js");
        await selectLines(page, 6, 8);
        await page.keyboard.press("Control+'");
        let chips = chipList(chat);
        await chips
          .getByRole("button", { name: "src/slugify.js:6-8", exact: true })
          .waitFor({ state: "visible", timeout: 15_000 });
        // The caret went to the message box: the person types at once.
        await until(
          "the message box to have the focus",
          () => chat.evaluate(() => document.hasFocus() && document.activeElement?.id === "message-input"),
          10_000,
        );
        // The same range again is not a second chip.
        await page.locator(".editor-group-container .monaco-editor .view-lines").first().click();
        await selectLines(page, 6, 8);
        await page.keyboard.press("Control+'");
        await chat.getByText("Already attached.").waitFor({ state: "visible", timeout: 10_000 });
        assert.equal(await chips.getByRole("listitem").count(), 1);

        // The Explorer's context menu: Add File to Fathom Chat. The Explorer takes the side bar's
        // place (VS Code drops the chat's webview), and the command brings the chat back with
        // both chips: the host kept them.
        await runCommand(page, "View: Show Explorer");
        const readme = page.locator(".explorer-folders-view .monaco-list-row").filter({ hasText: "README.md" }).first();
        await readme.waitFor({ state: "visible", timeout: 15_000 });
        await readme.click({ button: "right" });
        await pickMenuItem(page, "Add File to Fathom Chat");
        chat = await openChat(page);
        chips = chipList(chat);
        await chips
          .getByRole("button", { name: "README.md", exact: true })
          .waitFor({ state: "visible", timeout: 15_000 });
        await chips
          .getByRole("button", { name: "src/slugify.js:6-8", exact: true })
          .waitFor({ state: "visible", timeout: 5_000 });
        await ctx.screenshot("e2e-chips-selection-file");

        const box = chat.getByRole("textbox", { name: "Message" });
        await box.fill("What does this part do?");
        await box.press("Enter");
        await until("the first request", () => server.requests[0], 30_000);
        const sent = server.requests[0]!.rawBody;
        assert.match(sent, /What does this part do\?/);
        assert.match(
          sent,
          /<file path=\\"\/src\/slugify\.js\\" lines=\\"6-8\\">\\n\s+6\\texport function slugify\(title\) \{\\n\s+7\\t {2}return title\\n\s+8\\t {4}\.toLowerCase\(\)/,
        );
        assert.doesNotMatch(sent, /\\t \* @param/, "only the selected lines of slugify.js");
        assert.match(sent, /<file path=\\"\/README\.md\\">/);
        // The chips go with the message: the box is empty again, the sent message shows them.
        await chips.waitFor({ state: "detached", timeout: 10_000 });
        await chat
          .getByRole("list", { name: "Attached" })
          .getByText("src/slugify.js:6-8")
          .waitFor({ state: "visible", timeout: 10_000 });
        await chat.getByText("It lower-cases the title").waitFor({ state: "visible", timeout: 30_000 });
        // Ctrl+Alt+I from the editor: the chat's message box takes the keys.
        await page.locator(".editor-group-container .monaco-editor .view-lines").first().click();
        await page.keyboard.press("Control+Alt+I");
        await until(
          "the message box to have the focus again",
          () => chat.evaluate(() => document.hasFocus() && document.activeElement?.id === "message-input"),
          10_000,
        );
      });
    },
  },
  {
    name: "editor context: failed commands in the terminal (one printing at once) → its context menu → chips with the output and exit code",
    timeoutMs: 240_000,
    // The DOM renderer, so the test can read what the terminal shows.
    settings: { "terminal.integrated.gpuAcceleration": "off" },
    async run(ctx) {
      const { page } = ctx;
      await withModel(ctx, async (server) => {
        server.push(
          { toolCalls: [{ id: "ls1", name: "ls", arguments: { path: "/" } }] },
          // The same commands through the tool: what the agent reads of the person's terminals.
          { toolCalls: [{ id: "term1", name: "terminal_output", arguments: {} }] },
          { text: "The script exits with code 3 on purpose.", chunkDelayMs: 5 },
        );
        // Fathom is running (its view is open) when the command runs, so it sees the command end.
        const chat = await openChat(page);
        await runCommand(page, "Terminal: Create New Terminal");
        const terminal = page.locator(".terminal-wrapper .xterm-screen").last();
        await terminal.waitFor({ state: "visible", timeout: 30_000 });
        // Shell integration marks each prompt; wait for it before typing.
        const terminalText = async () =>
          (
            await page
              .locator(".terminal-wrapper .xterm-rows")
              .allInnerTexts()
              .catch(() => [] as string[])
          ).join("\n");
        await until("the shell prompt", async () => /[$#]/.test(await terminalText()), 30_000);
        await terminal.click();
        await page.keyboard.type(`node -e "console.log('boom from node'); process.exit(3)"`);
        await page.keyboard.press("Enter");
        await until("the command output", async () => (await terminalText()).includes("boom from node"), 30_000);
        await page.waitForTimeout(500);
        await terminal.click({ button: "right" });
        await pickMenuItem(page, "Add Terminal Output to Fathom Chat");
        const chip = chipList(chat).getByText(/^Terminal: node -e .* \(exit 3\)$/);
        await chip.waitFor({ state: "visible", timeout: 15_000 });
        // A builtin that prints at once can end before Fathom's read of its output begins; its
        // output then comes from the terminal through the clipboard, which the person allowed.
        await page
          .context()
          .grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(page.url()).origin });
        await terminal.click();
        await page.keyboard.type("echo fathom-term-$((6*7)); false");
        await page.keyboard.press("Enter");
        await until("the echo's output", async () => (await terminalText()).includes("fathom-term-42"), 30_000);
        await page.waitForTimeout(500);
        await terminal.click({ button: "right" });
        await pickMenuItem(page, "Add Terminal Output to Fathom Chat");
        await chipList(chat)
          .getByText(/^Terminal: echo fathom-term-.* \(exit 1\)$/)
          .waitFor({ state: "visible", timeout: 15_000 });
        await ctx.screenshot("e2e-chips-terminal");
        const box = chat.getByRole("textbox", { name: "Message" });
        await box.fill("Why did that fail?");
        await box.press("Enter");
        await until("the first request", () => server.requests[0], 30_000);
        const sent = server.requests[0]!.rawBody;
        assert.match(sent, /<terminal_output label=\\"Terminal: node -e/);
        assert.match(sent, /exit code: 3/);
        assert.match(sent, /boom from node/);
        assert.match(sent, /exit code: 1\\nfathom-term-42/, 'the echo\'s output is attached, not "(no output)"');
        assert.doesNotMatch(sent, /\\u001b\[|633;/, "escape sequences are removed");
        await until("the tool's result", () => server.requests[2], 30_000);
        const read = server.requests[2]!.rawBody;
        assert.match(
          read,
          /Terminal \\"bash\\":\\n\$ echo fathom-term-\$\(\(6\*7\)\); false\\nexit code: 1\\nfathom-term-42/,
        );
        assert.doesNotMatch(read, /Terminal \\"Fathom/, "Fathom's own task terminals are not the person's");
      });
    },
  },
  {
    name: "editor context: the lightbulb on a selection (Add to Fathom Chat), @problems, the editor menu (Explain with Fathom), Ctrl+Shift+Backspace rejects, Ctrl+Alt+N starts a new task",
    timeoutMs: 300_000,
    prepare(dir) {
      fs.writeFileSync(path.join(dir, "src", "typed.ts"), 'export const n: number = "not a number";\n');
    },
    async run(ctx) {
      const { page } = ctx;
      await withModel(ctx, async (server) => {
        let chat = await openChat(page);
        await openFile(page, "slugify.js");
        // The lightbulb on a selection (Ctrl+. lists quick fixes only): Add to Fathom Chat.
        await selectLines(page, 6, 7);
        const bulb = page.locator(".editor-group-container .monaco-editor .lightBulbWidget").first();
        await bulb.waitFor({ state: "visible", timeout: 30_000 });
        await bulb.click();
        const add = page.locator(".action-widget .monaco-list-row").filter({ hasText: "Add to Fathom Chat" }).first();
        await add.waitFor({ state: "visible", timeout: 30_000 });
        await page
          .locator(".action-widget .monaco-list-row")
          .filter({ hasText: "Explain with Fathom" })
          .first()
          .waitFor({ state: "visible" });
        await add.click();
        await chipList(chat)
          .getByRole("button", { name: "src/slugify.js:6-7", exact: true })
          .waitFor({ state: "visible", timeout: 15_000 });
        // @problems in the real chat: the TypeScript error of src/typed.ts (opened, so its server checks it).
        await openFile(page, "typed.ts");
        await page
          .locator(".editor-group-container .monaco-editor .squiggly-error")
          .first()
          .waitFor({ state: "attached", timeout: 90_000 });
        chat = await openChat(page);
        const box = chat.getByRole("textbox", { name: "Message" });
        await box.click();
        await box.pressSequentially("Look at @prob");
        await chat.getByRole("option", { name: /@problems/ }).waitFor({ state: "visible", timeout: 15_000 });
        await box.press("Enter");
        await chipList(chat).getByText("Problems (1 error)").waitFor({ state: "visible", timeout: 15_000 });
        server.push(
          { toolCalls: [{ name: "write_file", arguments: { file_path: "/notes.txt", content: "noted\n" } }] },
          { text: "Understood, I will not write it." },
        );
        await box.fill("Note what you see.");
        await box.press("Enter");
        await until("the first request", () => server.requests[0], 30_000);
        assert.match(server.requests[0]!.rawBody, /<file path=\\"\/src\/slugify\.js\\" lines=\\"6-7\\">/);
        assert.match(
          server.requests[0]!.rawBody,
          /<problems label=\\"Problems \(1 error\)\\">\\n\/src\/typed\.ts:1:\d+ error 2322 \(ts\)/,
        );
        // The proposal's diff: Ctrl+Shift+Backspace rejects it (a reason is asked; Enter gives none).
        const modified = page.locator(".editor-group-container .monaco-diff-editor .editor.modified").first();
        await modified.getByText("noted").first().waitFor({ state: "visible", timeout: 60_000 });
        await modified.locator(".view-lines:not(.line-delete)").first().click();
        await page.keyboard.press("Control+Shift+Backspace");
        const reason = page.locator(".quick-input-widget input");
        await reason.waitFor({ state: "visible", timeout: 10_000 });
        await reason.fill("not now");
        await page.keyboard.press("Enter");
        await chat.getByText("Understood, I will not write it.").waitFor({ state: "visible", timeout: 60_000 });
        assert.match(server.requests[1]!.rawBody, /not now/, "the reason reached the model");
        assert.equal(fs.existsSync(path.join(ctx.session.workspaceDir, "notes.txt")), false);
        // Ctrl+Alt+N: a new, empty task.
        await page.locator(".editor-group-container .monaco-editor .view-lines").first().click();
        await page.keyboard.press("Control+Alt+N");
        chat = await openChat(page);
        await until(
          "a new task",
          async () => (await chat.getByText("Understood, I will not write it.").count()) === 0,
          15_000,
        );
        // The editor's context menu: Explain with Fathom starts a task with the selection.
        server.push({ text: "It trims dashes." });
        await openFile(page, "slugify.js");
        await selectLines(page, 6, 9);
        // Right-clicked on the selected text, so the selection stays.
        const selected = await page
          .locator(".editor-group-container .monaco-editor .selected-text")
          .first()
          .boundingBox();
        assert.ok(selected, "the selection is drawn");
        await page.mouse.click(selected.x + Math.min(20, selected.width / 2), selected.y + selected.height / 2, {
          button: "right",
        });
        await pickMenuItem(page, "Explain with Fathom");
        await until("the explain request", () => server.requests[2], 30_000);
        assert.match(
          server.requests[2]!.rawBody,
          /Explain what this code does[\s\S]*<file path=\\"\/src\/slugify\.js\\" lines=\\"6-9\\">/,
        );
        chat = await openChat(page);
        await chat.getByText("It trims dashes.").waitFor({ state: "visible", timeout: 30_000 });
      });
    },
  },
  {
    name: "editor context: a TypeScript error → Ctrl+. → Fix with Fathom → a task with the diagnostic; Ctrl+Enter approves the fix in the diff",
    timeoutMs: 300_000,
    prepare(dir) {
      fs.writeFileSync(
        path.join(dir, "src", "count.ts"),
        'export function count(items: string[]): number {\n  const total: number = "none";\n  return items.length + total;\n}\n',
      );
    },
    async run(ctx) {
      const { page } = ctx;
      const file = path.join(ctx.session.workspaceDir, "src", "count.ts");
      await withModel(ctx, async (server) => {
        server.push(
          {
            toolCalls: [
              {
                name: "edit_file",
                arguments: {
                  file_path: "/src/count.ts",
                  old_string: 'const total: number = "none";',
                  new_string: "const total: number = 0;",
                },
              },
            ],
          },
          { text: "Fixed: total starts at 0.", chunkDelayMs: 5 },
        );
        const chat = await openChat(page);
        await openFile(page, "count.ts");
        // TypeScript's server reports the error (a squiggle under the bad initializer).
        await page
          .locator(".editor-group-container .monaco-editor .squiggly-error")
          .first()
          .waitFor({ state: "attached", timeout: 90_000 });
        // The Problems list as a chip (it stays in the message box: Fix starts a task of its own).
        await runCommand(page, "Fathom: Add Problems to Chat");
        await chipList(chat).getByText("Problems (1 error)").waitFor({ state: "visible", timeout: 15_000 });
        await page.locator(".editor-group-container .monaco-editor .view-lines").first().click();
        await page.keyboard.press("Control+G");
        await page.keyboard.type("2:9");
        await page.keyboard.press("Enter");
        await page.keyboard.press("Control+.");
        const fix = page.locator(".action-widget .monaco-list-row").filter({ hasText: "Fix with Fathom" }).first();
        await fix.waitFor({ state: "visible", timeout: 30_000 });
        await ctx.screenshot("e2e-fix-with-fathom-lightbulb");
        await fix.click();
        await until("the first request", () => server.requests[0], 60_000);
        const sent = server.requests[0]!.rawBody;
        assert.match(
          sent,
          /Fix this problem: \/src\/count\.ts:2:\d+ error 2322 \(ts\): Type 'string' is not assignable to type 'number'/,
        );
        assert.match(sent, /<problems label=\\"Problem at src\/count\.ts:2\\">/);
        assert.match(sent, /<file path=\\"\/src\/count\.ts\\" lines=\\"1-4\\">/, "the lines around the error");
        // The fix is proposed as a diff; Ctrl+Enter in it approves (only there: it is a proposal's key).
        const card = chat.getByRole("region", { name: "Proposed change to /src/count.ts" });
        await card.waitFor({ state: "visible", timeout: 60_000 });
        const modified = page.locator(".editor-group-container .monaco-diff-editor .editor.modified").first();
        await modified.getByText("const total: number = 0;").first().waitFor({ state: "visible", timeout: 30_000 });
        await modified.locator(".view-lines:not(.line-delete)").first().click();
        await until(
          "the proposal editor to have the focus",
          () => page.evaluate(() => Boolean(document.activeElement?.closest(".editor.modified"))),
          10_000,
        );
        await page.keyboard.press("Control+Enter");
        await card
          .getByText(/^Approved/)
          .first()
          .waitFor({ state: "visible", timeout: 30_000 });
        await until(
          "the fix on disk",
          () => fs.readFileSync(file, "utf8").includes("const total: number = 0;"),
          30_000,
        );
        assert.equal(
          fs.readFileSync(file, "utf8"),
          "export function count(items: string[]): number {\n  const total: number = 0;\n  return items.length + total;\n}\n",
        );
        await chat.getByText("Fixed: total starts at 0.").waitFor({ state: "visible", timeout: 30_000 });
        await ctx.screenshot("e2e-fix-with-fathom-done");
      });
    },
  },
];
