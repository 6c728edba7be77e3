// Stamps in the page and the chat webview for the real-host bench: when a diff, a card or a text
// is painted (the first animation frame after it appeared, on the server's clock), Enter and
// Approve presses, a file written to disk, and Fathom's log at debug level.
import * as fs from "node:fs";
import type { Frame, Page } from "playwright-core";
import { runCommand, until } from "../test/vscode/harness/chat";

export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/**
 * Watches for the next diff editor (page) and diff card (webview) to appear, and stamps the
 * first animation frame after each appeared with `Date.now()` (same clock as the server's).
 */
export async function armWatchers(page: Page, chat: Frame, proposed: string): Promise<void> {
  // Plain script text: functions passed to evaluate() would carry the bundler's helpers along.
  // The diff counts once its right side shows the proposal (a diff opened while the model wrote
  // shows the file unchanged until then); the editor renders spaces as U+00A0.
  await page.evaluate(`(() => {
    const w = window;
    const proposed = ${JSON.stringify(proposed)};
    if (w.__diffObs) w.__diffObs.disconnect();
    w.__diffAt = undefined;
    w.__diffObs = new MutationObserver(() => {
      const diff = Array.from(document.querySelectorAll(".editor-group-container .monaco-diff-editor")).find(
        (d) => d.offsetParent !== null && Array.from(d.querySelectorAll(".editor.modified .view-lines")).some((v) => (v.textContent ?? "").replace(/\u00a0/g, " ").includes(proposed)));
      if (diff && w.__diffAt === undefined) {
        w.__diffAt = -1;
        requestAnimationFrame(() => (w.__diffAt = Date.now()));
        w.__diffObs.disconnect();
      }
    });
    w.__diffObs.observe(document.body, { childList: true, subtree: true, characterData: true });
  })()`);
  await chat.evaluate(`(() => {
    const w = window;
    if (w.__cardObs) w.__cardObs.disconnect();
    w.__cardAt = undefined;
    // A card waiting for the person (older ones are decided, or scrolled out of the virtualized list).
    const pendingCard = () => Array.from(document.querySelectorAll('section[aria-label^="Proposed change to"] button'))
      .some((b) => b.textContent && b.textContent.trim() === "Approve");
    w.__cardObs = new MutationObserver(() => {
      if (w.__cardAt === undefined && pendingCard()) {
        w.__cardAt = -1;
        requestAnimationFrame(() => (w.__cardAt = Date.now()));
        w.__cardObs.disconnect();
      }
    });
    w.__cardObs.observe(document.body, { childList: true, subtree: true });
    // When the host's message with the pending card reached the webview (transit vs render).
    w.__cardMsgAt = undefined;
    if (!w.__cardMsgListener) {
      w.__cardMsgListener = true;
      window.addEventListener("message", (e) => {
        const d = e.data;
        if (w.__cardMsgAt === undefined && d && d.type === "itemUpdated" && d.item && d.item.status === "awaiting_approval") w.__cardMsgAt = Date.now();
      }, true);
    }
  })()`);
}

export async function stamps(page: Page, chat: Frame): Promise<{ diffAt: number; cardAt: number; cardMsgAt: number }> {
  let seen = { diffAt: -1, cardAt: -1, cardMsgAt: -1 };
  return until(
    "the diff editor and the diff card",
    async () => {
      const diffAt = (await page.evaluate("window.__diffAt ?? -1")) as number;
      const cardAt = (await chat.evaluate("window.__cardAt ?? -1")) as number;
      const cardMsgAt = (await chat.evaluate("window.__cardMsgAt ?? -1")) as number;
      seen = { diffAt, cardAt, cardMsgAt };
      return diffAt > 0 && cardAt > 0 ? seen : undefined;
    },
    60_000,
    50,
  ).catch((e: unknown) => {
    throw new Error(
      `${(e as Error).message} (${seen.diffAt > 0 ? "the diff was seen" : "no diff showing the proposal"}, ${seen.cardAt > 0 ? "the card was seen" : "no card"})`,
    );
  });
}

/** Stamps (in the chat webview) when the person presses Enter in the message box and when they press the next Approve. */
export async function armInputStamps(chat: Frame): Promise<void> {
  await chat.evaluate(`(() => {
    const w = window;
    if (w.__inputStamps) return;
    w.__inputStamps = true;
    w.__enterAt = [];
    w.__approveAt = [];
    document.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && e.target instanceof HTMLTextAreaElement) w.__enterAt.push(Date.now());
    }, true);
    document.addEventListener("click", (e) => {
      const b = e.target instanceof Element ? e.target.closest("button") : null;
      if (b && b.textContent && b.textContent.trim() === "Approve") w.__approveAt.push(Date.now());
    }, true);
  })()`);
}

/** Polls a file (every 2 ms) until `done(text)`; the `Date.now()` it was first seen so. */
export async function whenFile(file: string, done: (text: string) => boolean, timeoutMs = 30_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let text = "";
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      // not there yet
    }
    if (done(text)) return Date.now();
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${file} to be written`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** "Developer: Set Log Level…" → Fathom → Debug, as a person does: the latency marks are debug lines. */
export async function setFathomLogLevelDebug(page: Page): Promise<void> {
  await runCommand(page, "Developer: Set Log Level...");
  const rows = page.locator(".quick-input-list .monaco-list-row");
  const input = page.locator(".quick-input-widget input");
  await input.fill("Fathom");
  await rows.filter({ hasText: "Fathom" }).first().click({ timeout: 15_000 });
  await input.fill("Debug");
  await rows.filter({ hasText: "Debug" }).first().click({ timeout: 15_000 });
}

/**
 * Stamps the first frame painted after `text` appears in the chat (an answer streaming in). Each
 * `watch` name is its own watcher, so the first and the last text of one answer can be watched at once.
 */
export async function armTextWatch(chat: Frame, text: string, watch = "text"): Promise<void> {
  await chat.evaluate(`(() => {
    const w = window;
    const text = ${JSON.stringify(text)};
    const key = ${JSON.stringify(watch)};
    w.__textObs = w.__textObs || {};
    w.__textAt = w.__textAt || {};
    if (w.__textObs[key]) w.__textObs[key].disconnect();
    w.__textAt[key] = undefined;
    const obs = new MutationObserver(() => {
      if (w.__textAt[key] === undefined && (document.body.textContent ?? "").includes(text)) {
        w.__textAt[key] = -1;
        requestAnimationFrame(() => (w.__textAt[key] = Date.now()));
        obs.disconnect();
      }
    });
    w.__textObs[key] = obs;
    obs.observe(document.body, { childList: true, subtree: true, characterData: true });
  })()`);
}

export async function textShownAt(chat: Frame, watch = "text"): Promise<number> {
  return until(
    "the answer's text painted",
    async () => {
      const at = (await chat.evaluate(`(window.__textAt || {})[${JSON.stringify(watch)}] ?? -1`)) as number;
      return at > 0 ? at : undefined;
    },
    60_000,
    10,
  );
}
