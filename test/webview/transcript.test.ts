/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser.)
// The transcript against a fake host: streaming, sanitized markdown, following output,
// restore after reload, invalid messages, the live region, and a review's findings.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { assistant, baseState, manyItems, richState, user } from "./fixtures";
import { startHarness, type Harness } from "./harness";

describe("webview transcript", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  it("says it is connecting, posts ready, then renders the host's state", async () => {
    const view = await harness.open();
    const posted = await view.posted();
    assert.equal(posted[0]?.type, "ready");
    await view.page.getByText("Connecting to Fathom").waitFor();
    await view.send({ type: "state", state: baseState({ items: [user("u1", "Hello there")] }) });
    await view.page.getByText("Hello there").waitFor();
    assert.equal(await view.page.getByRole("heading", { name: "Fix the slugify bug" }).count(), 1);
    await view.page.context().close();
  });

  it("streams assistant text as sanitized markdown with highlighted, copyable code", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState({ status: "running", items: [user("u1", "Explain")] }) });
    await view.send({ type: "itemAppended", item: assistant("a1", "", true) });
    const text =
      'Here is **the fix**:\n\n```ts\nconst answer: number = 42;\n```\n\nDone <img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> [link](javascript:alert(1))';
    const chunks = text.match(/.{1,7}/gs)!;
    await view.sendAll(chunks.map((chunk) => ({ type: "textAppended", id: "a1", text: chunk })));
    const article = view.page.getByRole("article", { name: "Fathom" });
    await article.locator("strong", { hasText: "the fix" }).waitFor();
    await article.getByText("Done").waitFor();
    assert.equal(await article.getAttribute("aria-busy"), "true");
    assert.equal(await article.locator("code.hljs .hljs-keyword").first().textContent(), "const");
    assert.equal(await article.locator("img, script").count(), 0);
    assert.equal(await view.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    const href = await article
      .getByRole("link", { name: "link" })
      .getAttribute("href")
      .catch(() => null);
    assert.ok(!href?.startsWith("javascript:"), `unsafe link kept: ${href}`);
    await view.send({ type: "itemUpdated", item: assistant("a1", text, false) });
    await view.page.waitForFunction(
      () => document.querySelector("article[aria-label='Fathom']")?.getAttribute("aria-busy") === "false",
    );
    // Copy button copies the code.
    await article.getByRole("button", { name: "Copy code" }).click();
    await article.getByRole("button", { name: "Copied" }).waitFor();
    assert.equal(await view.page.evaluate(() => navigator.clipboard.readText()), "const answer: number = 42;");
    await view.page.context().close();
  });

  it("lists a review's findings under its summary, each place a link that opens it", async () => {
    const view = await harness.open();
    const summary = {
      ...assistant("a1", "**Review of the uncommitted changes: 2 findings (1 bug, 1 nit).**"),
      review: {
        findings: [
          {
            path: "/src/slugify.js",
            place: "src/slugify.js:10",
            line: 10,
            severity: "bug" as const,
            title: "A trailing dash is kept",
            fix: true,
          },
          { place: "../outside.js:3", line: 3, severity: "nit" as const, title: "Outside the workspace", fix: false },
        ],
      },
    };
    await view.send({ type: "state", state: baseState({ items: [user("u1", "/review"), summary] }) });
    const list = view.page.getByRole("list", { name: "Findings" });
    await list.waitFor();
    const rows = list.getByRole("listitem");
    assert.equal(await rows.count(), 2);
    assert.match(
      (await rows.nth(0).textContent()) ?? "",
      /Bug\s*src\/slugify\.js:10\s*A trailing dash is kept\s*fix suggested/,
    );
    // A place outside the workspace is named, not a link.
    assert.equal(await rows.nth(1).getByRole("button").count(), 0);
    await view.clearPosted();
    await list.getByRole("button", { name: "src/slugify.js:10" }).click();
    assert.deepEqual(await view.waitForPosted("openAttachment"), {
      type: "openAttachment",
      path: "/src/slugify.js",
      line: 10,
    });
    await view.page.context().close();
  });

  it("follows new output at the bottom, stops when scrolled up, and jumps to latest", async () => {
    const view = await harness.open({ height: 600 });
    await view.send({ type: "state", state: baseState({ status: "running", items: manyItems(300) }) });
    await view.page
      .getByText(/Editing \/src\/file59\.ts|Reading \/src\/file59\.ts/)
      .first()
      .waitFor();
    assert.equal(await view.page.getByRole("button", { name: "Jump to latest" }).count(), 0);
    // Appending while at the bottom keeps the newest item in view.
    await view.send({ type: "itemAppended", item: assistant("new1", "Newest message at the bottom") });
    await view.page.getByText("Newest message at the bottom").waitFor();
    await view.page.waitForTimeout(300);
    // A layout change alone (as cards above resize while a task streams) does not stop following.
    const region = view.page.getByRole("region", { name: "Conversation" });
    await region.evaluate((el) => el.scrollBy({ top: -300 }));
    await view.send({ type: "itemAppended", item: assistant("new0", "Still followed after a layout jump") });
    await view.page.getByText("Still followed after a layout jump").waitFor();
    await view.page.waitForTimeout(300);
    assert.equal(await view.page.getByRole("button", { name: "Jump to latest" }).count(), 0);
    // The person scrolls up (mouse wheel): the list stays put when more arrives, and "Jump to latest" appears.
    const box = await region.boundingBox();
    await view.page.mouse.move(box!.x + box!.width / 2, box!.y + box!.height / 2);
    for (let i = 0; i < 5 && (await region.evaluate((el) => el.scrollTop)) > 0; i++) {
      await view.page.mouse.wheel(0, -100_000);
      await view.page.waitForTimeout(100);
    }
    const jump = view.page.getByRole("button", { name: "Jump to latest" });
    await jump.waitFor();
    await view.page.waitForTimeout(200);
    await view.send({ type: "itemAppended", item: assistant("new2", "Arrived while scrolled up") });
    await view.page.waitForTimeout(300);
    const top = await region.evaluate((el) => el.scrollTop);
    assert.ok(top < 50, `the list moved to ${top} while the person was reading above`);
    await jump.click();
    await view.page.getByText("Arrived while scrolled up").waitFor();
    await view.page.waitForFunction(() => !document.querySelector("button[aria-label='Jump to latest']"));
    await view.page.context().close();
  });

  it("keeps following a message that grows while streaming", async () => {
    const view = await harness.open({ height: 500 });
    await view.send({
      type: "state",
      state: baseState({ status: "running", items: [...manyItems(50), assistant("s1", "Start.", true)] }),
    });
    await view.page.getByText("Start.").waitFor();
    for (let i = 0; i < 40; i += 1)
      await view.send({ type: "textAppended", id: "s1", text: `\n\nParagraph ${i} of a long answer.` });
    await view.page.getByText("Paragraph 39 of a long answer.").waitFor();
    await view.page.waitForTimeout(200);
    assert.ok(await view.page.getByText("Paragraph 39 of a long answer.").isVisible());
    await view.page.context().close();
  });

  it("restores everything from the host's state after a reload", async () => {
    const view = await harness.open();
    const state = richState({
      queued: ["Then update the changelog"],
      banner: { level: "warning", message: "Rate limited; retrying soon.", retryable: true },
    });
    await view.send({ type: "state", state });
    await view.page.getByRole("region", { name: "Proposed change to /src/slugify.js" }).waitFor();
    await view.reload();
    await view.page.getByText("Connecting to Fathom").waitFor();
    await view.send({ type: "state", state });
    const page = view.page;
    await page.getByRole("region", { name: "Proposed change to /src/slugify.js" }).waitFor();
    assert.equal(await page.getByRole("list", { name: "Todos" }).getByRole("listitem").count(), 3);
    assert.ok(await page.getByText("Then update the changelog").isVisible());
    assert.ok(await page.getByText("Rate limited; retrying soon.").isVisible());
    assert.ok(await page.getByRole("button", { name: "Approve" }).isVisible());
    assert.ok(await page.getByText("$0.06").isVisible());
    await page.context().close();
  });

  it("drops invalid messages with a warning and keeps working", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState({ items: [user("u1", "Still here")] }) });
    const bad = [
      null,
      "text",
      42,
      { type: "nope" },
      { type: "textAppended", id: 5 },
      { type: "state", state: { items: "x" } },
      { type: "itemAppended", item: { id: "z", kind: "alien" } },
    ];
    for (const message of bad) await view.send(message);
    await view.send({ type: "textAppended", id: "missing-id", text: "goes nowhere" });
    await view.send({ type: "itemAppended", item: assistant("a2", "Valid after invalid") });
    await view.page.getByText("Valid after invalid").waitFor();
    assert.ok(await view.page.getByText("Still here").isVisible());
    const warnings = await view.warnings();
    assert.equal(warnings.filter((w) => w.includes("dropped an invalid message")).length, bad.length);
    assert.deepEqual(harness.pageErrors, []);
    await view.page.context().close();
  });

  it("announces approval requests and task completion in a live region", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState({ status: "running", items: [user("u1", "Go")] }) });
    const live = view.page.getByTestId("announcer");
    assert.equal(await live.getAttribute("aria-live"), "polite");
    const edit = richState().items.at(-1)!;
    await view.send({ type: "itemAppended", item: edit });
    await view.page.waitForFunction(() =>
      document
        .querySelector("[data-testid=announcer]")
        ?.textContent?.includes("Approval needed: proposed change to /src/slugify.js"),
    );
    await view.send({ type: "status", status: "completed" });
    await view.page.waitForFunction(
      () => document.querySelector("[data-testid=announcer]")?.textContent === "Task completed.",
    );
    await view.page.context().close();
  });

  it("rehearses the first answer off-screen at idle (markdown, code, the list) and leaves nothing behind", async () => {
    const view = await harness.open({
      // The answer is rendered, laid out and removed in one task: seen when its layout is asked for.
      initScript: `window.__rehearsed = { answer: false, code: false, user: false };
        const seen = (w) => {
          if (w.querySelector(".message.assistant .md-block")) window.__rehearsed.answer = true;
          if (w.querySelector("code.hljs .hljs-keyword")) window.__rehearsed.code = true;
          if (w.querySelector("[aria-label=Conversation] .message.user")) window.__rehearsed.user = true;
        };
        const rect = Element.prototype.getBoundingClientRect;
        Element.prototype.getBoundingClientRect = function () {
          if (this.classList.contains("warm-up")) seen(this);
          return rect.call(this);
        };
        new MutationObserver(() => {
          const w = document.querySelector(".warm-up");
          if (w) seen(w);
        }).observe(document, { childList: true, subtree: true });`,
    });
    await view.page.waitForFunction(() => {
      const r = (window as unknown as { __rehearsed: Record<string, boolean> }).__rehearsed;
      return r.answer && r.code && r.user && !document.querySelector(".warm-up");
    });
    // The person's view is untouched: still connecting, no message in it.
    await view.page.getByText("Connecting to Fathom").waitFor();
    assert.equal(await view.page.getByRole("article").count(), 0);
    await view.send({ type: "state", state: baseState({ status: "running", items: [user("u1", "hello")] }) });
    await view.send({ type: "itemAppended", item: assistant("a1", "**Hi.** Here", true) });
    await view.page.getByRole("article", { name: "Fathom" }).locator("strong", { hasText: "Hi." }).waitFor();
    assert.deepEqual(await view.warnings(), []);
    await view.page.context().close();
  });
});
