// The messages of the Model box and of images in the message box, validated where they enter.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_IMAGE_BYTES, MAX_IMAGES_PER_MESSAGE, WebviewToHostChatSchema, parseMessage } from "../../../src/protocol";

const image = (over: Record<string, unknown> = {}) => ({
  mimeType: "image/png",
  data: "iVBORw0KGgo=",
  thumbnail: "data:image/webp;base64,UklGRg==",
  ...over,
});

describe("images and models from the webview", () => {
  it("takes a message of images alone, or text with images", () => {
    assert.equal(parseMessage(WebviewToHostChatSchema, { type: "sendMessage", text: "", images: [image()] }).ok, true);
    assert.equal(
      parseMessage(WebviewToHostChatSchema, {
        type: "sendMessage",
        text: "what is this?",
        images: [image(), image({ mimeType: "image/jpeg" })],
      }).ok,
      true,
    );
  });

  const invalid: [string, unknown][] = [
    ["no text and no image", { type: "sendMessage", text: "", images: [] }],
    [
      "an image type the APIs do not read",
      { type: "sendMessage", text: "x", images: [image({ mimeType: "image/svg+xml" })] },
    ],
    [
      "more than the images a message may carry",
      { type: "sendMessage", text: "x", images: Array.from({ length: MAX_IMAGES_PER_MESSAGE + 1 }, () => image()) },
    ],
    [
      "an image over the size cap",
      { type: "sendMessage", text: "x", images: [image({ data: "A".repeat(Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 4) })] },
    ],
    ["data that is not base64", { type: "sendMessage", text: "x", images: [image({ data: "<script>" })] }],
    [
      "a thumbnail that is not an image data URL",
      { type: "sendMessage", text: "x", images: [image({ thumbnail: "javascript:alert(1)" })] },
    ],
    ["a model id that is too long", { type: "setModel", model: "m".repeat(301) }],
    ["a model list request without its id", { type: "listModels" }],
  ];
  for (const [name, data] of invalid) {
    it(`refuses ${name}`, () => assert.equal(parseMessage(WebviewToHostChatSchema, data).ok, false));
  }

  it("trims a typed model id", () => {
    assert.deepEqual(parseMessage(WebviewToHostChatSchema, { type: "setModel", model: "  llama3  " }), {
      ok: true,
      message: { type: "setModel", model: "llama3" },
    });
  });
});
