// `npm run bench -- tasks` options: the server's threads and the mini-swe-agent harness.
import { test } from "node:test";
import assert from "node:assert/strict";
import os from "node:os";
import { parseTaskArgs, UsageError } from "../../../bench/tasks";

test("--threads defaults to every core and takes a whole number of at least 1", () => {
  assert.equal(parseTaskArgs([]).threads, os.availableParallelism());
  assert.equal(parseTaskArgs(["--threads", "1"]).threads, 1);
  assert.throws(() => parseTaskArgs(["--threads", "0"]), UsageError);
  assert.throws(() => parseTaskArgs(["--threads"]), UsageError);
});

test("mini is a harness, run by default beside fathom and aider, in tool-call mode unless told", () => {
  assert.deepEqual(parseTaskArgs([]).harnesses, ["fathom", "aider", "mini"]);
  const o = parseTaskArgs(["--harness", "mini", "--mini-mode", "textbased"]);
  assert.deepEqual(o.harnesses, ["mini"]);
  assert.equal(o.miniMode, "textbased");
  assert.equal(parseTaskArgs(["--harness", "mini"]).miniMode, "toolcall");
  assert.throws(() => parseTaskArgs(["--mini-mode", "xml"]), UsageError);
});

test("the VS Code peers' CLIs are harnesses when named, not by default", () => {
  const o = parseTaskArgs(["--harness", "qwen-code,cline,opencode,kilo"]);
  assert.deepEqual(o.harnesses, ["qwen-code", "cline", "opencode", "kilo"]);
  assert.ok(!parseTaskArgs([]).harnesses.some((h) => ["qwen-code", "cline", "opencode", "kilo"].includes(h)));
  assert.throws(() => parseTaskArgs(["--harness", "continue"]), UsageError);
});
