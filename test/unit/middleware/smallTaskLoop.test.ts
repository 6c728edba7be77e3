// The small-model task loop (issue 39): named files attached, whole files written as code blocks
// become writes followed by the person's test command, the run comes back short, a file already
// tested is asked for again with variety, and nothing of this reaches a model in the full profile.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { createAgent } from "../../../src/core/agent/createAgent";
import { filesNotToChange } from "../../../src/core/middleware/smallTaskLoop";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import type { Executor } from "../../../src/core/executor/types";
import type { ModelFit, ModelRequest } from "../../../src/core/model/types";
import { collect } from "../../support/agentTestKit";
import { FakeModel, type FakeScript } from "../../support/fakeModel";

const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

const STUB = "def leap_year(year):\n    pass\n";
const GOOD = "def leap_year(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n";
const WRONG = "def leap_year(year):\n    return year % 4 == 0\n";
const ASK =
  "Solve this exercise. The instructions are in .docs/instructions.md. Write the solution in leap.py. The tests are in leap_test.py; do not change them. Run the tests with `python -m pytest -q` until they pass.";

function workspace(): string {
  const root = mkdtempSync(path.join(tmpdir(), "fathom-task-loop-"));
  roots.push(root);
  mkdirSync(path.join(root, ".docs"));
  writeFileSync(path.join(root, ".docs", "instructions.md"), "# Instructions\n\nIs the year a leap year?\n");
  writeFileSync(path.join(root, "leap.py"), STUB);
  writeFileSync(
    path.join(root, "leap_test.py"),
    "from leap import leap_year\n\ndef test_1900():\n    assert leap_year(1900) is False\n",
  );
  return root;
}

/** Runs "pytest" against what leap.py holds now: the right rule passes, anything else fails as pytest reports it. */
function pytestExecutor(root: string, ran: string[]): Executor {
  return {
    async run(command) {
      ran.push(command);
      const passed = readFileSync(path.join(root, "leap.py"), "utf8") === GOOD;
      const output = passed
        ? ".\n1 passed in 0.01s\n"
        : [
            "F                                                                        [100%]",
            "=================================== FAILURES ===================================",
            "__________________________________ test_1900 ___________________________________",
            "",
            "    def test_1900():",
            ">       assert leap_year(1900) is False",
            "E       assert True is False",
            "E        +  where True = leap_year(1900)",
            "",
            "leap_test.py:4: AssertionError",
            "=========================== short test summary info ============================",
            "FAILED leap_test.py::test_1900 - assert True is False",
            "1 failed in 0.02s",
          ].join("\n");
      return {
        output,
        exitCode: passed ? 0 : 1,
        timedOut: false,
        cancelled: false,
        truncated: false,
        durationMs: 5,
        via: "fake",
      };
    },
  };
}

function smallModel(script: FakeScript[]): FakeModel & { sampled: (number | undefined)[]; sent: ModelRequest[] } {
  const sampled: (number | undefined)[] = [];
  const sent: ModelRequest[] = [];
  const turns = script.map((turn) => (request: ModelRequest, index: number) => {
    sampled.push(request.sampling?.temperature);
    sent.push(request);
    return typeof turn === "function" ? turn(request, index) : turn;
  });
  const model = new FakeModel(turns) as FakeModel & {
    sampled: typeof sampled;
    sent: typeof sent;
    fit: () => Promise<ModelFit>;
  };
  model.fit = async () => ({ toolCallMode: "native", profile: "small", reason: "a small model (test)" });
  return Object.assign(model, { sampled, sent });
}

function agentFor(root: string, model: FakeModel, ran: string[]) {
  return createAgent({
    model,
    workspaceRoot: root,
    backend: new FilesystemBackend({ rootDir: root }),
    executor: pytestExecutor(root, ran),
    rules: false,
    generalPurposeSubagent: false,
  });
}

test("named files go in front of the model; a code block becomes the write, then the person's tests run; a pass asks for the answer", async () => {
  const root = workspace();
  const ran: string[] = [];
  const model = smallModel([
    { text: `Here is the solution:\n\n\`\`\`python\n${WRONG}\`\`\`\n` },
    { text: `leap.py\n\`\`\`python\n${GOOD}\`\`\`` },
    { text: "leap_year now skips centuries unless divisible by 400; the tests pass." },
  ]);
  const { done, events } = await collect(agentFor(root, model, ran), ASK);
  assert.equal(done.reason, "completed");
  assert.equal(done.finalText, "leap_year now skips centuries unless divisible by 400; the tests pass.");
  assert.equal(readFileSync(path.join(root, "leap.py"), "utf8"), GOOD);
  assert.deepEqual(ran, ["python -m pytest -q", "python -m pytest -q"]);

  const first = model.requests[0]!;
  assert.deepEqual(first.toolNames, [], "a write turn offers no tools: the model answers with the file");
  assert.match(first.system, /# Changing files\nTo change a file, reply with only its path on one line/);
  const request = first.messages.at(-1)!.content;
  assert.match(request, /<named_files>\n<file path="\/\.docs\/instructions\.md">\n# Instructions\n/);
  assert.match(
    request,
    /<file path="\/leap\.py">\ndef leap_year\(year\):\n {4}pass\n<\/file>/,
    "raw text, no line numbers",
  );
  assert.match(request, /<file path="\/leap_test\.py">/);

  // The failing run comes back short, with what to do next.
  const feedback = model.requests[1]!.messages.at(-1)!.content;
  assert.match(
    feedback,
    /Result of execute \(failed\):\n`python -m pytest -q`: 1 failed, 0 passed \(exit code 1\)\.\n- test_1900 \(leap_test\.py:4\)\n {4}assert leap_year\(1900\) is False\n {4}assert True is False/,
  );
  assert.match(feedback, /The tests fail\. Write the whole new content of \/leap\.py that makes them pass\.$/);
  assert.doesNotMatch(feedback, /short test summary info/);
  // The model's own writes stay code blocks in what it is shown.
  assert.match(model.requests[1]!.messages.find((m) => m.role === "assistant")!.content, /```python\ndef leap_year/);
  assert.match(model.requests[2]!.system, /The tests pass \(`python -m pytest -q`\)\. Answer the person/);

  const said = events
    .filter((e) => e.type === "warning" && e.code === "text_tool_calls")
    .map((e) => (e as { message: string }).message);
  assert.deepEqual(said, [
    "Read the code block as a write to /leap.py, then ran `python -m pytest -q`.",
    "Read the code block as a write to /leap.py, then ran `python -m pytest -q`.",
  ]);
  const started = events.filter((e) => e.type === "tool_call_started").map((e) => (e as { toolName: string }).toolName);
  assert.deepEqual(started, ["write_file", "execute", "write_file", "execute"]);
});

test("the same file again is not written: the model is asked again, with variety", async () => {
  const root = workspace();
  const ran: string[] = [];
  const block = (code: string) => ({ text: `\`\`\`python\n${code}\`\`\`` });
  const model = smallModel([block(WRONG), block(WRONG), block(GOOD), { text: "Fixed." }]);
  const { done } = await collect(agentFor(root, model, ran), ASK);
  assert.equal(done.finalText, "Fixed.");
  assert.deepEqual(model.sampled, [undefined, undefined, 0.8, undefined]);
  assert.equal(ran.length, 2, "the repeated file was neither written nor tested");
  assert.match(
    model.requests[2]!.messages.at(-1)!.content,
    /^That is the same \/leap\.py as before, and the tests failed on it\./,
  );
});

test("not for a full-profile model, nor for a request that names no test command", async () => {
  const root = workspace();
  const full = new FakeModel([{ text: "ok" }]);
  await collect(agentFor(root, full, []), ASK);
  assert.ok(full.requests[0]!.toolNames.includes("write_file"));
  assert.doesNotMatch(full.requests[0]!.messages.at(-1)!.content, /named_files/);

  const small = smallModel([{ text: "It checks leap years." }]);
  const { done } = await collect(agentFor(root, small, []), "What does leap.py do?");
  assert.equal(done.finalText, "It checks leap years.");
  assert.ok(small.requests[0]!.toolNames.includes("read_file"));
  assert.doesNotMatch(small.requests[0]!.messages.at(-1)!.content, /named_files/);
});

test("a file the person asked not to change is not written: the model is asked for the file to change", async () => {
  const root = workspace();
  const ran: string[] = [];
  const model = smallModel([
    { text: `leap.py\n\`\`\`python\n${WRONG}\`\`\`` },
    { text: "leap_test.py\n```python\ndef test_1900():\n    pass\n```" },
    { text: `leap.py\n\`\`\`python\n${GOOD}\`\`\`` },
    { text: "Done." },
  ]);
  const { done } = await collect(agentFor(root, model, ran), ASK);
  assert.equal(done.finalText, "Done.");
  assert.match(readFileSync(path.join(root, "leap_test.py"), "utf8"), /assert leap_year\(1900\) is False/);
  assert.equal(ran.length, 2);
  assert.match(
    model.requests[2]!.messages.at(-1)!.content,
    /^The person asked not to change \/leap_test\.py\. Write the whole new content of \/leap\.py instead/,
  );
});

test("which files the request asks not to change", () => {
  assert.deepEqual(
    [
      ...filesNotToChange(
        "Write the solution in leap.py (now a stub). The tests are in leap_test.py; do not change them.",
      ),
    ],
    ["/leap_test.py"],
  );
  assert.deepEqual([...filesNotToChange("Leave config/app.yml as it is. Fix src/a.ts.")], ["/config/app.yml"]);
  assert.deepEqual([...filesNotToChange("Fix a.py and b.py until `pytest` passes.")], []);
});

test("the answer ends with its first complete block for a file: what a small model imagines after it is not generated", async () => {
  const root = workspace();
  const model = smallModel([
    {
      chunks: [
        "Here is the new file:\n\nleap.py\n```python\n",
        GOOD,
        "```",
        "\n\nNow run the tests:\n```sh\npython -m pytest -q\n```\nThe output will be: 9 passed",
      ],
    },
    { text: "Done." },
  ]);
  const { done, events } = await collect(agentFor(root, model, []), ASK);
  assert.equal(done.finalText, "Done.");
  assert.equal(readFileSync(path.join(root, "leap.py"), "utf8"), GOOD);
  const shown = model.requests[1]!.messages.find((m) => m.role === "assistant")!.content;
  assert.ok(shown.endsWith("```"), shown);
  assert.doesNotMatch(shown, /Now run the tests|9 passed/);
  const streamed = events
    .filter((e) => e.type === "text_delta")
    .map((e) => (e as { text: string }).text)
    .join("");
  assert.doesNotMatch(streamed, /Now run the tests/);
});

test("a model that keeps writing the file the tests failed on is asked for its answer, not tested again", async () => {
  const root = workspace();
  const ran: string[] = [];
  const wrong = { text: `\`\`\`python\n${WRONG}\`\`\`` };
  const model = smallModel([...Array.from({ length: 8 }, () => wrong), { text: "It still fails for 1900." }]);
  const { done, events } = await collect(agentFor(root, model, ran), ASK);
  assert.equal(done.finalText, "It still fails for 1900.");
  assert.equal(ran.length, 1);
  assert.deepEqual(
    model.sampled.map((t) => (t === undefined ? t : Math.round(t * 10) / 10)),
    [undefined, undefined, 0.8, 1, 1.2, 1.2, 1.2, 1.2, undefined],
  );
  assert.match(model.requests[8]!.system, /The tests still fail \(1 run\)\. Answer the person briefly/);
  assert.ok(
    events.some((e) => e.type === "warning" && /asked 6 times already, so it is asked for its answer/.test(e.message)),
  );
});

test("an answer while the tests fail is not the end: the file is asked for again", async () => {
  const root = workspace();
  const ran: string[] = [];
  const model = smallModel([
    { text: `\`\`\`python\n${WRONG}\`\`\`` },
    { text: "Result of execute (passed):\n`python -m pytest -q`: 1 passed (exit code 0)." },
    { text: `\`\`\`python\n${GOOD}\`\`\`` },
    { text: "Fixed." },
  ]);
  const { done } = await collect(agentFor(root, model, ran), ASK);
  assert.equal(done.finalText, "Fixed.");
  assert.equal(ran.length, 2);
  assert.match(
    model.requests[2]!.messages.at(-1)!.content,
    /^The tests still fail\. Reply with the path of \/leap\.py/,
  );
});
