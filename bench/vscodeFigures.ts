// Figures VS Code itself keeps about Fathom, read from its UI as a person would: the activation
// time "Developer: Show Running Extensions" shows (code loading + activate()).
import type { Page } from "playwright-core";
import { runCommand, until } from "../test/vscode/harness/chat";

/**
 * "Activation: N ms" of Fathom's row in Developer: Show Running Extensions (VS Code adds the time
 * to load the extension's code to its activate() call). Closes the editor afterwards.
 */
export async function runningExtensionsActivationMs(page: Page): Promise<number> {
  await runCommand(page, "Developer: Show Running Extensions");
  const row = page
    .locator(".runtime-extensions-editor .extension")
    .filter({ has: page.locator(".name", { hasText: /^Fathom$/ }) })
    .first();
  const text = await until(
    "Fathom's row in Running Extensions",
    async () => {
      const t = await row
        .locator(".activation-time")
        .innerText({ timeout: 1000 })
        .catch(() => "");
      return /\d+\s*ms/.test(t) ? t : undefined;
    },
    30_000,
    200,
  );
  await page.keyboard.press("Control+W");
  return Number(/(\d+)\s*ms/.exec(text)![1]);
}
