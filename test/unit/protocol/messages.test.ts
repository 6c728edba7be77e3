import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HostToWebviewSchema, MAX_MESSAGE_CHARS, WebviewToHostSchema, parseMessage } from "../../../src/protocol";

describe("webview → host messages", () => {
  it("accepts a well-formed message and trims its text", () => {
    const parsed = parseMessage(WebviewToHostSchema, { type: "sendMessage", text: "  fix the test \n" });
    assert.deepEqual(parsed, { ok: true, message: { type: "sendMessage", text: "fix the test" } });
  });

  const invalid: [string, unknown][] = [
    ["not an object", "sendMessage"],
    ["null", null],
    ["unknown type", { type: "deleteEverything" }],
    ["missing text", { type: "sendMessage" }],
    ["text of the wrong type", { type: "sendMessage", text: 42 }],
    ["blank text", { type: "sendMessage", text: "   " }],
    ["oversized text", { type: "sendMessage", text: "x".repeat(MAX_MESSAGE_CHARS + 1) }],
  ];
  for (const [name, data] of invalid) {
    it(`refuses ${name} with a reason`, () => {
      const parsed = parseMessage(WebviewToHostSchema, data);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.ok(parsed.error.length > 0);
    });
  }

  it("names the offending field", () => {
    const parsed = parseMessage(WebviewToHostSchema, { type: "sendMessage", text: 7 });
    assert.ok(!parsed.ok && parsed.error.startsWith("text:"), JSON.stringify(parsed));
  });
});

describe("host → webview messages", () => {
  it("accepts a transcript", () => {
    const message = { type: "transcript", messages: [{ id: "m1", role: "user", text: "hi" }] };
    assert.deepEqual(parseMessage(HostToWebviewSchema, message), { ok: true, message });
  });
  it("refuses a message with an unknown role", () => {
    const parsed = parseMessage(HostToWebviewSchema, { type: "appendMessage", message: { id: "1", role: "system", text: "x" } });
    assert.equal(parsed.ok, false);
  });
});
