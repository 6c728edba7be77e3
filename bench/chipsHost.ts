// Chips in the real host (issue 29): Ctrl+' in an editor → the chip shown in the message box,
// and the size of a first request that carries one chip (a 10-line range).
import { countTokens } from "gpt-tokenizer";
import type { Frame, Page } from "playwright-core";
import type { ScriptedModelServer } from "../test/support/scriptedModelServer";
import { runCommand, until } from "../test/vscode/harness/chat";

export interface ChipFigures {
  /** Ctrl+' pressed (workbench) → the chip painted in the chat (webview), ms, per sample. */
  addToShown: number[];
  /** The first request of a task whose message is "hello" with one 10-line chip. */
  requestChars: number;
  requestTokens: number;
}

/**
 * Opens src/slugify.js, then for each sample selects a line, presses Ctrl+' and waits for the
 * chip (the first animation frame after it appears is stamped); the chip is removed before
 * the next. Finally sends "hello" with a 10-line range and returns that request's size.
 */
export async function measureChips(
  page: Page,
  chat: Frame,
  server: ScriptedModelServer,
  samples: number,
): Promise<ChipFigures> {
  await runCommand(page, "Go to File...");
  await page.locator(".quick-input-widget input").fill("numbers.js");
  await page
    .locator(".quick-input-list .monaco-list-row")
    .filter({ hasText: "numbers.js" })
    .first()
    .click({ timeout: 15_000 });
  const editor = page.locator(".editor-group-container .monaco-editor .view-lines").first();
  await editor.waitFor({ state: "visible", timeout: 15_000 });
  await page.evaluate(`(() => {
    const w = window;
    w.__chipKeyAt = [];
    document.addEventListener("keydown", (e) => { if (e.key === "'" && e.ctrlKey) w.__chipKeyAt.push(Date.now()); }, true);
  })()`);
  const addToShown: number[] = [];
  const chip = chat.getByRole("list", { name: /^Attached to the next message/ }).getByRole("listitem");
  for (let i = 0; i < samples; i++) {
    await editor.click();
    await page.keyboard.press("Control+G");
    await page.keyboard.type(String(i + 1));
    await page.keyboard.press("Enter");
    await page.keyboard.press("Shift+End");
    await chat.evaluate(`(() => {
      const w = window;
      w.__chipAt = undefined;
      if (w.__chipObs) w.__chipObs.disconnect();
      w.__chipObs = new MutationObserver(() => {
        if (w.__chipAt === undefined && document.querySelector('ul.chips:not(.sent) li')) {
          w.__chipAt = -1;
          requestAnimationFrame(() => (w.__chipAt = Date.now()));
          w.__chipObs.disconnect();
        }
      });
      w.__chipObs.observe(document.body, { childList: true, subtree: true });
    })()`);
    await page.keyboard.press("Control+'");
    const shownAt = await until(
      "the chip",
      async () => {
        const at = (await chat.evaluate("window.__chipAt ?? -1")) as number;
        return at > 0 ? at : undefined;
      },
      15_000,
      10,
    );
    const keyAt = ((await page.evaluate("window.__chipKeyAt")) as number[])[i]!;
    addToShown.push(shownAt - keyAt);
    await chat
      .getByRole("button", { name: /^Remove / })
      .first()
      .click();
    await until("the chip removed", async () => (await chip.count()) === 0, 10_000, 10);
  }
  // One 10-line chip with "hello".
  await editor.click();
  await page.keyboard.press("Control+G");
  await page.keyboard.type("1");
  await page.keyboard.press("Enter");
  for (let i = 0; i < 10; i++) await page.keyboard.press("Shift+ArrowDown");
  await page.keyboard.press("Control+'");
  await chip.first().waitFor({ state: "visible", timeout: 15_000 });
  const before = server.requests.length;
  server.push({ text: "Hello with a chip!" });
  const message = chat.getByRole("textbox", { name: "Message" });
  await message.fill("hello");
  await message.press("Enter");
  const request = await until("the request with a chip", () => server.requests[before], 60_000, 10);
  await chat.getByText("Hello with a chip!").waitFor({ state: "visible", timeout: 60_000 });
  return { addToShown, requestChars: request.rawBody.length, requestTokens: countTokens(request.rawBody) };
}
