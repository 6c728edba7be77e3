// The chips the editor's entry points make, and the lightbulb's provider, without VS Code.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_ATTACHMENT_CHARS, MAX_ATTACHMENTS, type Attachment } from "../../../src/core";
import { ComposerChips } from "../../../src/host/context/composerChips";
import {
  MAX_PROBLEMS,
  problemsAttachment,
  terminalAttachment,
  type ProblemEntry,
} from "../../../src/host/context/contextText";
import { FathomCodeActions, type CodeActionApi } from "../../../src/host/context/fathomCodeActions";

test("problems: errors first, then warnings, by file and line; information left out unless asked; the cap is said", () => {
  const entries: ProblemEntry[] = [
    {
      path: "/b.ts",
      line: 3,
      column: 1,
      severity: "warning",
      message: "unused",
      source: "eslint",
      code: "no-unused-vars",
    },
    { path: "/a.ts", line: 9, column: 2, severity: "info", message: "could be const" },
    {
      path: "/b.ts",
      line: 1,
      column: 5,
      severity: "error",
      message: "Type 'string' is not\\nassignable",
      source: "ts",
      code: "2322",
    },
    {
      path: "/a.ts",
      line: 7,
      column: 1,
      severity: "error",
      message: "Cannot find name 'x'.",
      source: "ts",
      code: "2304",
    },
  ];
  const chip = problemsAttachment(entries);
  assert.ok(!("refused" in chip) && chip.kind === "problems");
  assert.equal(chip.label, "Problems (2 errors, 1 warning)");
  assert.deepEqual(chip.text.split("\n"), [
    "/a.ts:7:1 error 2304 (ts): Cannot find name 'x'.",
    "/b.ts:1:5 error 2322 (ts): Type 'string' is not\\nassignable",
    "/b.ts:3:1 warning no-unused-vars (eslint): unused",
  ]);
  const many = Array.from({ length: MAX_PROBLEMS + 30 }, (_, i): ProblemEntry => ({
    path: "/c.ts",
    line: i + 1,
    column: 1,
    severity: i % 2 ? "warning" : "error",
    message: "m".repeat(800),
  }));
  const capped = problemsAttachment(many);
  assert.ok(!("refused" in capped) && capped.kind === "problems");
  assert.ok(capped.text.length <= MAX_ATTACHMENT_CHARS + 200, `capped at ${capped.text.length}`);
  assert.match(capped.text, /\(cut here: the list is longer|more not listed/);
  assert.ok(capped.text.startsWith("/c.ts:1:1 error"), "errors come first");
  assert.ok(!capped.text.includes("m".repeat(501)), "a long message is cut");
  assert.deepEqual(problemsAttachment([{ path: "/a.ts", line: 1, column: 1, severity: "hint", message: "h" }]), {
    refused: "There are no errors or warnings in the workspace right now (the Problems view is empty).",
  });
});

test("terminal output: escape sequences removed, the end kept within the cap and the cut said, the exit code named", () => {
  const failed = terminalAttachment({
    command: "npm test",
    exitCode: 1,
    output: "\x1b]633;C\x07\x1b[31mFAIL\x1b[0m add.test.js\r\n  expected 3\r\n",
    terminalName: "bash",
  });
  assert.equal(failed.label, "Terminal: npm test (exit 1)");
  assert.equal(failed.text, "$ npm test\nexit code: 1\nFAIL add.test.js\n  expected 3");
  const long = terminalAttachment({
    command: "yes",
    output: `${"y\n".repeat(MAX_ATTACHMENT_CHARS)}THE END`,
    terminalName: "bash",
  });
  assert.ok(long.text.length <= MAX_ATTACHMENT_CHARS + 300);
  assert.match(long.text, /output cut: only its last 20,000 characters are attached/);
  assert.match(long.text, /exit code: unknown/);
  assert.ok(long.text.endsWith("THE END"), "the end of the output is kept");
  const running = terminalAttachment({
    command: "npm run dev",
    output: "listening",
    running: true,
    terminalName: "bash",
  });
  assert.equal(running.label, "Terminal: npm run dev (still running)");
  const selected = terminalAttachment({ command: "", output: "some text", selection: true, terminalName: "zsh" });
  assert.equal(selected.label, "Terminal selection (zsh)");
  assert.match(selected.text, /^Text selected in the terminal "zsh":\nsome text$/);
});

test("chips: the same range once, at most the cap (with a notice), removed by index, cleared on send", () => {
  const views: { attachments: Attachment[]; notice?: string; focus?: boolean }[] = [];
  const chips = new ComposerChips((v) => views.push(v) > 0);
  const range: Attachment = { kind: "file", path: "/a.ts", startLine: 2, endLine: 4 };
  chips.add([range]);
  chips.add([{ ...range }]);
  assert.equal(chips.attachments.length, 1);
  assert.equal(views.at(-1)!.notice, "Already attached.");
  assert.equal(views.at(-1)!.focus, true, "a command puts the caret in the message box");
  chips.add([
    { kind: "file", path: "/a.ts", startLine: 2, endLine: 5 },
    { kind: "file", path: "/a.ts" },
  ]);
  assert.equal(chips.attachments.length, 3, "another range of the same file, and the whole file, are new chips");
  chips.add(Array.from({ length: MAX_ATTACHMENTS }, (_, i): Attachment => ({ kind: "file", path: `/f${i}.ts` })));
  assert.equal(chips.attachments.length, MAX_ATTACHMENTS);
  assert.match(views.at(-1)!.notice!, /at most 20 attachments: 3 not added/);
  chips.remove(0);
  assert.equal(chips.attachments.length, MAX_ATTACHMENTS - 1);
  assert.deepEqual(chips.attachments[0], { kind: "file", path: "/a.ts", startLine: 2, endLine: 5 });
  chips.clear();
  assert.deepEqual(views.at(-1), { attachments: [] });
});

/** Stand-ins for VS Code's CodeAction classes: plain data, as VS Code's are. */
class FakeKind {
  constructor(readonly value: string) {}
  static readonly QuickFix = new FakeKind("quickfix");
  static readonly Empty = new FakeKind("");
  contains(other: FakeKind) {
    return this.value === "" || other.value === this.value || other.value.startsWith(`${this.value}.`);
  }
}
class FakeAction {
  diagnostics?: unknown[];
  command?: { command: string; arguments?: unknown[] };
  constructor(
    readonly title: string,
    readonly kind: FakeKind,
  ) {}
}
const api = { CodeAction: FakeAction, CodeActionKind: FakeKind } as unknown as CodeActionApi;
const range = (empty: boolean) => ({ isEmpty: empty }) as never;
const doc = { uri: { toString: () => "file:///w/a.ts" } } as never;

test("code actions: nothing without a diagnostic or a selection; Fix on diagnostics; Explain and Add on a selection; none for an on-save kind", () => {
  const provider = new FathomCodeActions(api);
  assert.deepEqual(
    provider.provideCodeActions(doc, range(true), { diagnostics: [], triggerKind: 2, only: undefined } as never),
    [],
  );
  const diagnostic = { message: "nope", range: {} };
  const fix = provider.provideCodeActions(doc, range(true), {
    diagnostics: [diagnostic],
    triggerKind: 2,
    only: undefined,
  } as never) as unknown as FakeAction[];
  assert.deepEqual(
    fix.map((a) => [a.title, a.kind.value, a.command!.command]),
    [["Fix with Fathom", "quickfix", "fathom.fixWithFathom"]],
  );
  assert.deepEqual(fix[0]!.diagnostics, [diagnostic]);
  const selection = provider.provideCodeActions(doc, range(false), {
    diagnostics: [],
    triggerKind: 1,
    only: undefined,
  } as never) as unknown as FakeAction[];
  assert.deepEqual(
    selection.map((a) => a.title),
    ["Explain with Fathom", "Add to Fathom Chat"],
  );
  const onSave = provider.provideCodeActions(doc, range(false), {
    diagnostics: [diagnostic],
    triggerKind: 2,
    only: new FakeKind("source.fixAll"),
  } as never);
  assert.deepEqual(onSave, []);
});

test("chips: a focus asked for while no view is open goes to the next view that loads", () => {
  let open = false;
  const chips = new ComposerChips(() => open);
  chips.add([{ kind: "file", path: "/a.ts" }]);
  assert.deepEqual(chips.view(), { attachments: [{ kind: "file", path: "/a.ts" }], focus: true });
  assert.deepEqual(chips.view(), { attachments: [{ kind: "file", path: "/a.ts" }] }, "once");
  open = true;
  chips.focus();
  assert.equal(chips.view().focus, undefined, "a view took it");
});
