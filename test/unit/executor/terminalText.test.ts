import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { TerminalTextCleaner, cleanTerminalText } from "../../../src/core/executor/terminalText";

describe("cleanTerminalText", () => {
  const cases: [string, string, string][] = [
    ["plain text", "hello\nworld\n", "hello\nworld\n"],
    ["colours", "\x1b[31mFAIL\x1b[0m test.ts\n", "FAIL test.ts\n"],
    ["VS Code shell integration marks", "\x1b]633;C\x07out\n\x1b]633;D;0\x07", "out\n"],
    ["OSC terminated by ST", "\x1b]0;title\x1b\\done", "done"],
    ["hyperlinks", "\x1b]8;;file:///a.ts\x07a.ts\x1b]8;;\x07\n", "a.ts\n"],
    ["CRLF", "a\r\nb\r\n", "a\nb\n"],
    ["progress bar overwrite", "10%\r50%\r100%\ndone\n", "100%\ndone\n"],
    ["cursor movement and erase", "\x1b[2K\x1b[1Gline\n", "line\n"],
    ["charset selection", "\x1b(Bok", "ok"],
    ["bell and backspace", "a\x07b\x08c", "abc"],
    ["unicode survives", "✓ 3 passed — ok\n", "✓ 3 passed — ok\n"],
  ];
  for (const [name, raw, expected] of cases) {
    it(name, () => assert.equal(cleanTerminalText(raw), expected));
  }
});

describe("TerminalTextCleaner (streaming)", () => {
  it("holds back a sequence split across chunks", () => {
    const cleaner = new TerminalTextCleaner();
    const raw = "\x1b]633;C\x07\x1b[32mPASS\x1b[0m a.test.ts\n\x1b]633;D;0\x07";
    // Every split point gives the same text as the whole.
    for (let i = 0; i <= raw.length; i++) {
      const c = new TerminalTextCleaner();
      assert.equal(c.push(raw.slice(0, i)) + c.push(raw.slice(i)) + c.end(), "PASS a.test.ts\n", `split at ${i}`);
    }
    assert.equal(cleaner.push("abc\x1b["), "abc");
    assert.equal(cleaner.push("1mdef"), "def");
  });

  it("drops an unterminated sequence at the end instead of leaking it", () => {
    const cleaner = new TerminalTextCleaner();
    assert.equal(cleaner.push("x\x1b]633;P;Cwd=/tmp"), "x");
    assert.equal(cleaner.end(), "");
  });
});
