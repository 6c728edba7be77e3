import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseSlashCommand } from "../../../src/protocol";
import { sendWithCommand } from "../../../src/host/chatView/chatCommands";
import { BUILTIN_COMMANDS, builtinFor } from "../../../webview-ui/src/lib/builtinCommands";

describe("one reading of a leading slash", () => {
  it("reads `/name args`, trimming the message and the rest of the line", () => {
    assert.deepEqual(parseSlashCommand("/fix-issue 123 high"), { name: "fix-issue", args: "123 high" });
    assert.deepEqual(parseSlashCommand("  /plan \n  add a test  "), { name: "plan", args: "add a test" });
    assert.deepEqual(parseSlashCommand("/compact"), { name: "compact", args: "" });
    assert.deepEqual(parseSlashCommand("/Plan x"), { name: "Plan", args: "x" }, "the name as typed");
    assert.deepEqual(parseSlashCommand("/ns:tool.v2_x first\nsecond"), { name: "ns:tool.v2_x", args: "first\nsecond" });
  });

  it("leaves text, paths and a slash later in the line alone", () => {
    for (const text of ["hello /x", "/src/a.ts is broken", "/", "/-x", "/plan/x", "", "plain"])
      assert.equal(parseSlashCommand(text), undefined, text);
  });

  it("the message box's built-ins match any case; the host's /plan and /compact only as typed", async () => {
    assert.equal(
      builtinFor(parseSlashCommand("/NEW"))?.command,
      BUILTIN_COMMANDS.find((c) => c.name === "new"),
    );
    assert.deepEqual(builtinFor(parseSlashCommand("/plan  fix it "))?.args, "fix it");
    assert.equal(builtinFor(parseSlashCommand("/my-prompt x")), undefined, "a prompt file's command goes to the host");
    const calls: unknown[] = [];
    const session = {
      send: async (...a: unknown[]) => void calls.push(["send", ...a]),
      compact: async () => void calls.push(["compact"]),
      notice: (...a: unknown[]) => void calls.push(["notice", ...a]),
    };
    await sendWithCommand(session, { type: "sendMessage", text: "/compact" });
    await sendWithCommand(session, { type: "sendMessage", text: "/compact now" });
    await sendWithCommand(session, { type: "sendMessage", text: "/plan fix it" });
    await sendWithCommand(session, { type: "sendMessage", text: "/Plan fix it" });
    await sendWithCommand(session, { type: "sendMessage", text: "/plan" });
    await sendWithCommand(session, { type: "sendMessage", text: "/review" });
    await sendWithCommand(session, { type: "sendMessage", text: "/review staged" });
    await sendWithCommand(session, { type: "sendMessage", text: "/review two words" });
    assert.deepEqual(calls.slice(0, 6), [
      ["compact"],
      ["send", "/compact now", undefined, {}],
      ["send", "fix it", undefined, { mode: "plan" }],
      ["send", "/Plan fix it", undefined, {}],
      ["send", "/review", undefined, { review: { kind: "uncommitted" } }],
      ["send", "/review staged", undefined, { review: { kind: "staged" } }],
    ]);
    assert.equal(calls.length, 7);
    assert.deepEqual(
      (calls[6] as unknown[]).slice(0, 2),
      ["notice", "warning"],
      "a target it cannot read is said, not sent",
    );
  });
});
