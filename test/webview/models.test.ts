/// <reference lib="dom" />
// (page.evaluate callbacks run in the browser.)
// The Model box in the header, the model's reasoning (collapsed), and images pasted or dropped
// into the message box, in the built webview against a fake host.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { assistant, baseState, user } from "./fixtures";
import { OUTPUT_DIR, startHarness, type Harness, type WebviewPage } from "./harness";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Pastes (or drops) a real PNG of `size` pixels, made by the page's canvas, into the message box. */
async function putImage(
  view: WebviewPage,
  how: "paste" | "drop",
  opts: { size?: number; type?: string; bytes?: number } = {},
): Promise<void> {
  await view.page.evaluate(
    async ({ how, size, type, bytes }) => {
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = size;
      const ctx = canvas.getContext("2d")!;
      ctx.fillStyle = "#c33";
      ctx.fillRect(0, 0, size, size);
      const blob = bytes
        ? new Blob([new Uint8Array(bytes)], { type })
        : await new Promise<Blob>((r) => canvas.toBlob((b) => r(b!), "image/png"));
      const file = new File([blob], type === "image/png" ? "shot.png" : "notes.pdf", { type });
      const dt = new DataTransfer();
      dt.items.add(file);
      const box = document.getElementById("message-input")!;
      if (how === "paste")
        box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
      else
        box
          .closest("form")!
          .dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { how, size: opts.size ?? 400, type: opts.type ?? "image/png", bytes: opts.bytes ?? 0 },
  );
}

describe("webview: models, reasoning and images", { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.stop());

  it("the Model box lists the provider's models with context and price, filters as you type, and picks", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState() });
    const box = view.page.getByRole("combobox", { name: "Model" });
    assert.equal(await box.inputValue(), "gpt-4.1");
    await box.click();
    const ask = await view.waitForPosted("listModels");
    await view.page.getByRole("status").filter({ hasText: "Loading models…" }).waitFor();
    await view.send({
      type: "models",
      requestId: ask.requestId,
      models: [
        { id: "gpt-4.1", contextWindow: 1_047_576, price: { input: 2, output: 8 }, images: true },
        { id: "gpt-4.1-mini", contextWindow: 1_047_576, price: { input: 0.4, output: 1.6 }, images: true },
        { id: "o3-mini", contextWindow: 200_000, price: { input: 1.1, output: 4.4 } },
      ],
    });
    const list = view.page.getByRole("listbox", { name: "Models" });
    await list
      .getByRole("option", { name: /gpt-4\.1-mini.*1\.0M context.*\$0\.4 \/ \$1\.6 per M tokens.*reads images/ })
      .waitFor();
    assert.equal(await box.getAttribute("aria-expanded"), "true");
    // An accessible combobox (axe), and a picture of it for people.
    await view.page.evaluate(axeSource);
    const serious = await view.page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run: (c: unknown, o: unknown) => Promise<{ violations: { id: string; impact: string }[] }> };
        }
      ).axe;
      const r = await axe.run(document, { resultTypes: ["violations"] });
      return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
    });
    assert.deepEqual(serious, []);
    await view.page.screenshot({ path: path.join(OUTPUT_DIR, "model-picker.png") });
    // Typing filters; arrows move; Enter picks.
    await box.pressSequentially("mini");
    assert.equal(await list.getByRole("option").count(), 2);
    await box.press("ArrowDown");
    await box.press("ArrowDown");
    assert.match((await box.getAttribute("aria-activedescendant")) ?? "", /model-list-option-1/);
    await box.press("Enter");
    assert.deepEqual(await view.waitForPosted("setModel"), { type: "setModel", model: "o3-mini" });
    assert.equal(await box.getAttribute("aria-expanded"), "false");
    assert.equal(await box.inputValue(), "o3-mini", "the pick shows until the host confirms it");
    await view.send({ type: "model", model: { provider: "openai", model: "o3-mini", images: false } });
    assert.equal(await box.inputValue(), "o3-mini");
    await view.page.context().close();
  });

  it("free text: a server that cannot list its models still lets the person type one", async () => {
    const view = await harness.open();
    await view.send({ type: "state", state: baseState({ model: { provider: "openai-compatible", model: "llama3" } }) });
    const box = view.page.getByRole("combobox", { name: "Model" });
    await box.focus();
    const ask = await view.waitForPosted("listModels");
    await view.send({
      type: "models",
      requestId: ask.requestId,
      models: [],
      error: "Could not list the models of http://localhost:11434/v1 (404): Not Found. Type a model id instead.",
    });
    await view.page.getByRole("status").filter({ hasText: "Could not list the models" }).waitFor();
    await box.fill("qwen2.5-coder:14b");
    await box.press("Enter");
    assert.deepEqual(await view.waitForPosted("setModel"), { type: "setModel", model: "qwen2.5-coder:14b" });
    // Escape puts back what the host says.
    await box.focus();
    await box.fill("something else");
    await box.press("Escape");
    assert.equal(await box.inputValue(), "qwen2.5-coder:14b");
    // A stale answer (an older request) is ignored.
    await box.click();
    const again = await view.waitForPosted("listModels");
    await view.send({ type: "models", requestId: Number(again.requestId) - 1, models: [{ id: "stale" }] });
    assert.equal(await view.page.getByRole("option", { name: /stale/ }).count(), 0);
    await view.page.context().close();
  });

  it("shows the model's reasoning collapsed above its answer, and while it streams", async () => {
    const view = await harness.open();
    await view.send({
      type: "state",
      state: baseState({
        status: "running",
        items: [user("u1", "Why?"), { id: "a1", kind: "assistant", text: "", streaming: true, reasoning: "First I " }],
      }),
    });
    const thinking = view.page.getByText("Thinking…");
    await thinking.waitFor();
    await view.send({ type: "reasoningAppended", id: "a1", text: "check the tests." });
    await view.send({ type: "textAppended", id: "a1", text: "Because the test expects a dash." });
    await view.send({
      type: "itemUpdated",
      item: {
        id: "a1",
        kind: "assistant",
        text: "Because the test expects a dash.",
        streaming: false,
        reasoning: "First I check the tests.",
      },
    });
    const summary = view.page.getByText("Thought (24 characters)");
    await summary.waitFor();
    const details = view.page.locator("details.reasoning");
    assert.equal(await details.getAttribute("open"), null, "collapsed");
    assert.equal(await view.page.getByText("First I check the tests.").isVisible(), false);
    await summary.click();
    await view.page.getByText("First I check the tests.").waitFor();
    await view.page.getByText("Because the test expects a dash.").waitFor();
    await view.send({ type: "state", state: baseState({ items: [user("u1", "x"), assistant("a2", "Plain answer")] }) });
    assert.equal(await view.page.locator("details.reasoning").count(), 0);
    await view.page.context().close();
  });

  it("pasted and dropped images show as thumbnails, can be removed, and go with the message", async () => {
    const view = await harness.open();
    await view.send({
      type: "state",
      state: baseState({ model: { provider: "openai", model: "gpt-4.1", images: true } }),
    });
    await view.page.getByText("paste or drop an image").waitFor();
    await putImage(view, "paste");
    const thumbs = view.page.getByRole("list", { name: "Images to send" });
    await thumbs.getByRole("img", { name: "Image 1 to send" }).waitFor();
    await putImage(view, "drop", { size: 64 });
    await thumbs.getByRole("img", { name: "Image 2 to send" }).waitFor();
    await view.page.getByRole("button", { name: "Remove image 1" }).click();
    assert.equal(await thumbs.getByRole("img").count(), 1);
    // An image alone may be sent (no text needed).
    await view.page.getByRole("button", { name: "Send" }).click();
    const sent = (await view.waitForPosted("sendMessage")) as unknown as {
      text: string;
      images: { mimeType: string; data: string; thumbnail: string }[];
    };
    assert.equal(sent.text, "");
    assert.equal(sent.images.length, 1);
    assert.equal(sent.images[0]!.mimeType, "image/png");
    assert.ok(Buffer.from(sent.images[0]!.data, "base64").subarray(1, 4).toString() === "PNG", "the image's own bytes");
    assert.match(sent.images[0]!.thumbnail, /^data:image\/(webp|png);base64,/);
    assert.ok(sent.images[0]!.thumbnail.length < 64_000);
    assert.equal(await view.page.getByRole("list", { name: "Images to send" }).count(), 0, "cleared after sending");
    // In the transcript, the person's message shows its thumbnails.
    await view.send({
      type: "itemAppended",
      item: {
        id: "u9",
        kind: "user",
        text: "",
        images: [{ mimeType: "image/png", thumbnail: sent.images[0]!.thumbnail }],
      },
    });
    await view.page
      .getByRole("list", { name: "Attached images" })
      .getByRole("img", { name: "Attached image 1" })
      .waitFor();
    await view.page.context().close();
  });

  it("refuses images a model cannot read, files that are not images, and images over 5 MB, saying why", async () => {
    const view = await harness.open();
    await view.send({
      type: "state",
      state: baseState({ model: { provider: "openai-compatible", model: "qwen2.5-coder:14b", images: false } }),
    });
    await putImage(view, "paste");
    await view.page
      .getByRole("alert")
      .filter({ hasText: "qwen2.5-coder:14b does not read images, so the image was not attached" })
      .waitFor();
    assert.equal(await view.page.getByRole("list", { name: "Images to send" }).count(), 0);
    await view.send({ type: "model", model: { provider: "openai", model: "gpt-4.1", images: true } });
    // Host messages are applied at the next animation frame: paste once the view shows the new model.
    await view.page.waitForFunction(
      () =>
        (document.querySelector('input[role="combobox"][aria-label="Model"]') as HTMLInputElement | null)?.value ===
        "gpt-4.1",
    );
    await putImage(view, "paste", { type: "application/pdf", bytes: 100 });
    await view.page.getByRole("alert").filter({ hasText: "is not a PNG, JPEG, GIF or WebP image" }).waitFor();
    await putImage(view, "paste", { type: "image/png", bytes: 6 * 1024 * 1024 });
    await view.page.getByRole("alert").filter({ hasText: "is 6.0 MB; images up to 5.0 MB can be sent" }).waitFor();
    assert.equal(await view.page.getByRole("list", { name: "Images to send" }).count(), 0);
    // Text pastes are left to the box.
    await view.page.getByRole("textbox", { name: "Message" }).fill("still typing");
    assert.equal(await view.page.getByRole("textbox", { name: "Message" }).inputValue(), "still typing");
    await view.page.context().close();
  });
});
