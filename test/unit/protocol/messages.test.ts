import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  HostToWebviewChatSchema,
  MAX_MESSAGE_CHARS,
  WebviewToHostChatSchema,
  parseMessage,
} from "../../../src/protocol";

describe("webview → host messages", () => {
  it("accepts a well-formed message and trims its text", () => {
    const parsed = parseMessage(WebviewToHostChatSchema, { type: "sendMessage", text: "  fix the test \n" });
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
    ["an approval without its tool call", { type: "approve" }],
    ["a command that is not offered", { type: "runCommand", command: "workbench.action.terminal.sendSequence" }],
  ];
  for (const [name, data] of invalid) {
    it(`refuses ${name} with a reason`, () => {
      const parsed = parseMessage(WebviewToHostChatSchema, data);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.ok(parsed.error.length > 0);
    });
  }

  it("names the offending field", () => {
    const parsed = parseMessage(WebviewToHostChatSchema, { type: "sendMessage", text: 7 });
    assert.ok(!parsed.ok && parsed.error.startsWith("text:"), JSON.stringify(parsed));
  });
});

describe("host → webview messages", () => {
  it("accepts an appended user item", () => {
    const message = { type: "itemAppended", item: { id: "u1", kind: "user", text: "hi" } };
    assert.deepEqual(parseMessage(HostToWebviewChatSchema, message), { ok: true, message });
  });
  it("refuses an item of an unknown kind", () => {
    const parsed = parseMessage(HostToWebviewChatSchema, {
      type: "itemAppended",
      item: { id: "1", kind: "system", text: "x" },
    });
    assert.equal(parsed.ok, false);
  });
});
