// Helpers for end-to-end tests that drive the Fathom chat view by accessible names.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Frame, Locator, Page } from "playwright-core";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer.js";
import { activityBarItem, findWebviewFrame } from "./browser.js";
import { writeUserSettings } from "./codeServer.js";
import type { E2EContext } from "./e2e.js";

/** Points Fathom at a scripted model server (through user settings) for the duration of `work`. */
export async function withScriptedModel(
  ctx: E2EContext,
  work: (server: ScriptedModelServer) => Promise<void>,
): Promise<void> {
  const server = await startScriptedModelServer([]);
  try {
    // VS Code watches settings.json: the change applies without a reload, as a person's would.
    writeUserSettings(ctx.session.userDataDir, {
      "fathom.provider": "openai-compatible",
      "fathom.baseUrl": server.baseUrlOpenAI,
      "fathom.model": "scripted-model",
    });
    await work(server);
  } finally {
    await server.close();
  }
}

/** Opens the Fathom view from the activity bar (if it is not open) and returns its webview frame. */
export async function openChat(page: Page): Promise<Frame> {
  const icon = activityBarItem(page, "Fathom");
  await icon.waitFor({ state: "visible", timeout: 60_000 });
  if (
    !(await page
      .locator(".sidebar .composite.title")
      .getByText(/Fathom/i)
      .first()
      .isVisible()
      .catch(() => false))
  )
    await icon.click();
  const hasMessageBox = async (f: Frame) => (await f.getByRole("textbox", { name: "Message" }).count()) > 0;
  try {
    return await findWebviewFrame(page, hasMessageBox, 20_000);
  } catch {
    // After a window reload on a loaded machine the restored view can stay unresolved; asking
    // for the view by its command (as a person could from the palette) resolves it.
    await runCommand(page, "Fathom: Focus on Chat View");
    return findWebviewFrame(page, hasMessageBox, 60_000);
  }
}

/** Runs a command from the command palette by its title. */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press("F1");
  const quickInput = page.locator(".quick-input-widget input");
  await quickInput.waitFor({ state: "visible", timeout: 15_000 });
  await quickInput.fill(`>${title}`);
  await focusedQuickPickRow(page, title).waitFor({ timeout: 15_000 });
  await page.keyboard.press("Enter");
}

/**
 * The quick pick's focused row when its label is exactly `label`. Waiting for any matching row is
 * not enough: the palette and Quick Open list recently used entries before the typed filter
 * applies, and Enter then runs whichever of them has the focus.
 */
export function focusedQuickPickRow(page: Page, label: string): Locator {
  const exact = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  return page
    .locator(".quick-input-list .monaco-list-row.focused")
    .filter({ has: page.locator(".label-name").filter({ hasText: exact }) })
    .first();
}

/** Opens a workspace file with Quick Open and waits for its editor tab. */
export async function openFileWithQuickOpen(page: Page, name: string): Promise<void> {
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: 15_000 });
  await input.fill(name);
  await focusedQuickPickRow(page, name).waitFor({ timeout: 15_000 });
  await page.keyboard.press("Enter");
  await page
    .locator(".tabs-container .tab.active")
    .filter({ hasText: name })
    .waitFor({ state: "visible", timeout: 15_000 });
}

export async function send(chat: Frame, text: string): Promise<void> {
  await chat.getByRole("textbox", { name: "Message" }).fill(text);
  await chat.getByRole("button", { name: "Send" }).click();
}

/**
 * Changes user settings the way a person does: "Preferences: Open User Settings (JSON)", edit,
 * save. (Rewriting settings.json behind code-server's back is not noticed by a running window.)
 */
export async function editUserSettingsInEditor(ctx: E2EContext, extra: Record<string, unknown>): Promise<void> {
  const { page } = ctx;
  const file = path.join(ctx.session.userDataDir, "User", "settings.json");
  const current = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  await runCommand(page, "Preferences: Open User Settings (JSON)");
  // VS Code 1.139 may show it as a tab or as a modal editor: find the editor by its content.
  const editor = page.locator(".monaco-editor").filter({ hasText: "workbench.startupEditor" }).first();
  await editor.waitFor({ state: "visible", timeout: 15_000 });
  await editor.locator(".view-lines").click();
  // Paste rather than type: typing would trigger the editor's auto-closing of brackets and quotes.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(page.url()).origin });
  await page.evaluate((text) => navigator.clipboard.writeText(text), JSON.stringify({ ...current, ...extra }, null, 2));
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Control+V");
  await page.keyboard.press("Control+S");
  const deadline = Date.now() + 15_000;
  const wanted = JSON.stringify({ ...current, ...extra });
  // The save truncates before it writes: a read in between sees an empty or partial file.
  const saved = (): string | undefined => {
    try {
      return JSON.stringify(JSON.parse(fs.readFileSync(file, "utf8")));
    } catch {
      return undefined;
    }
  };
  while (saved() !== wanted) {
    if (Date.now() > deadline) throw new Error("settings.json was not saved with the new settings");
    await page.waitForTimeout(100);
  }
  await page.keyboard.press("Escape");
}

/** "Fathom: Set API Key" as a person runs it: pick the provider (its label), type the key, Enter. */
export async function setApiKeyInUI(page: Page, providerLabel: string, key: string): Promise<void> {
  await runCommand(page, "Fathom: Set API Key");
  await enterApiKey(page, providerLabel, key);
}

/** The rest of "Set API Key" once its provider pick is open (e.g. from a banner's button). */
export async function enterApiKey(page: Page, providerLabel: string, key: string): Promise<void> {
  const label = page
    .locator(".quick-input-list .monaco-list-row .label-name")
    .filter({ hasText: new RegExp(`^${providerLabel.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) });
  await label.first().waitFor({ state: "visible", timeout: 15_000 });
  await label.first().click();
  const input = page.locator('.quick-input-widget input[type="password"]');
  await input.waitFor({ state: "visible", timeout: 15_000 });
  await input.fill(key);
  await page.keyboard.press("Enter");
  await page
    .locator(".notifications-toasts")
    .getByText(`saved the API key for ${providerLabel}`)
    .first()
    .waitFor({ state: "visible", timeout: 15_000 });
}

/** Polls `check` until it returns a truthy value (then returns it) or `timeoutMs` passes. */
export async function until<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? ` (last error: ${String(last)})` : ""}`,
      );
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Puts `text` on the page's clipboard (for pasting into Monaco without its auto-closing). */
export async function setClipboard(page: Page, text: string): Promise<void> {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(page.url()).origin });
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
}
