// A diff opened while the model still writes its edit (ReviewGate.prepare), in a real extension
// host: the proposal fills in the same editor, which the person can then edit; a prepared diff no
// request comes for closes with the group it split off.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { ApprovalDecision, ApprovalRequest } from "../../../src/core";
import { ReviewGate } from "../../../src/host/review/reviewGate";
import { FirstDiff } from "../../../src/host/review/firstDiff";

const root = () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.tmpdir();
let counter = 0;

async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 8000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const diffTabs = () =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff);

suite("Diff opened while the model writes", function () {
  this.timeout(60_000);
  let log: vscode.LogOutputChannel;
  let gate: ReviewGate;
  let dir: string;

  suiteSetup(() => {
    log = vscode.window.createOutputChannel("Fathom early diff tests", { log: true });
    gate = new ReviewGate({ log, scheme: "fathom-early-test" });
    // These tests are of a window that has shown a diff editor (early diffs); the last one is of a fresh window.
    new FirstDiff(() => false).opened();
  });
  suiteTeardown(() => {
    gate.dispose();
    log.dispose();
    fs.rmSync(path.join(root(), "early-diff-tests"), { recursive: true, force: true });
  });
  setup(async () => {
    dir = `/early-diff-tests/t${Date.now().toString(36)}${++counter}`;
    fs.mkdirSync(path.join(root(), dir), { recursive: true });
    fs.writeFileSync(path.join(root(), dir, "typing.txt"), "the person types here\n");
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(root(), dir, "typing.txt")), { preview: false });
  });
  teardown(async () => {
    await vscode.commands.executeCommand("workbench.action.files.revertAll").then(undefined, () => undefined);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  const request = (callId: string, file: string, before: string, after: string): ApprovalRequest => ({
    toolCallId: callId,
    toolName: "edit_file",
    kind: "edit",
    args: { file_path: file },
    proposal: { path: file, before, after },
    task: { id: "task1", title: "Early diffs" },
  });

  test("the proposal fills in the diff that opened while the model wrote (even where the person typed): same editor, editable, approved as edited", async () => {
    const file = `${dir}/a.txt`;
    const id = "task1::c1";
    gate.prepare(id, file, "alpha\nbeta\n", "Early diffs");
    const tab = await until("the prepared diff", () => diffTabs()[0]);
    assert.match(tab.label, /a\.txt ↔ Fathom's proposal \(editable\) · Early diffs/);
    assert.equal(
      vscode.window.activeTextEditor?.document.fileName.endsWith("typing.txt"),
      true,
      "focus stays where the person was typing",
    );
    const groups = vscode.window.tabGroups.all.length;
    const afterUri = (tab.input as vscode.TabInputTextDiff).modified;
    // Before the proposal: the file as it is, on both sides.
    assert.equal((await vscode.workspace.openTextDocument(afterUri)).getText(), "alpha\nbeta\n");
    // The person types there before the proposal has come: the proposal still shows.
    const early = new vscode.WorkspaceEdit();
    early.insert(afterUri, new vscode.Position(0, 0), "typed too soon\n");
    assert.ok(await vscode.workspace.applyEdit(early));

    const controller = new AbortController();
    const decided: Promise<ApprovalDecision> = gate.request(
      request("c1", file, "alpha\nbeta\n", "alpha\nBETA\n"),
      controller.signal,
    );
    assert.equal(gate.proposalUris(id)?.after.toString(), afterUri.toString(), "the request takes the prepared diff");
    const doc = await vscode.workspace.openTextDocument(afterUri);
    await until("the proposal in the open diff", () => doc.getText() === "alpha\nBETA\n");
    assert.equal(diffTabs().length, 1, "no second diff editor");
    assert.equal(vscode.window.tabGroups.all.length, groups, "no second editor group");

    // The person changes the proposal before approving it.
    const change = new vscode.WorkspaceEdit();
    change.insert(afterUri, new vscode.Position(2, 0), "gamma\n");
    assert.ok(await vscode.workspace.applyEdit(change), "the right side is editable once the proposal is in");
    await until("the edit", () => doc.getText() === "alpha\nBETA\ngamma\n");
    gate.decide(id, { type: "approve" });
    assert.deepEqual(await decided, { type: "edit", content: "alpha\nBETA\ngamma\n" });
    await until(
      "the diff and the group it split off to close",
      () => diffTabs().length === 0 && vscode.window.tabGroups.all.length === groups - 1,
    );
  });

  test("a prepared diff's right side follows the edit as the model writes it, scrolled to it, never over the person's typing; the proposal then fills it in", async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i}`);
    const before = lines.join("\n") + "\n";
    const file = `${dir}/streamed.txt`;
    gate.prepare("task1::p1", file, before);
    const tab = await until("the prepared diff", () => diffTabs()[0]);
    const afterUri = (tab.input as vscode.TabInputTextDiff).modified;
    const doc = await vscode.workspace.openTextDocument(afterUri);
    const editor = () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === afterUri.toString());
    await until("the right side's editor", editor);
    const partly = before.replace("line 250\n", "LINE 250\n");
    gate.previewPrepared("task1::p1", partly);
    await until("the preview on the right", () => doc.getText() === partly);
    await until("line 251 in view", () =>
      editor()?.visibleRanges.some((r) => r.start.line <= 250 && r.end.line >= 250),
    );
    const more = partly.replace("line 251\n", "LINE 251\n");
    gate.previewPrepared("task1::p1", more);
    await until("the next preview", () => doc.getText() === more);
    // The person types on the right side: a preview no longer replaces it.
    const typed = new vscode.WorkspaceEdit();
    typed.insert(afterUri, new vscode.Position(0, 0), "mine\n");
    assert.ok(await vscode.workspace.applyEdit(typed));
    gate.previewPrepared("task1::p1", more.replace("line 252\n", "LINE 252\n"));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(doc.getText(), "mine\n" + more);
    const proposal = more.replace("line 252\n", "LINE 252\n");
    const decided = gate.request(request("p1", file, before, proposal), new AbortController().signal);
    await until("the proposal in the open diff", () => doc.getText() === proposal);
    gate.previewPrepared("task1::p1", before);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(doc.getText(), proposal, "a preview after the request changes nothing");
    gate.decide("task1::p1", { type: "approve" });
    assert.deepEqual(await decided, { type: "approve" });
  });

  test("a change far down the file is scrolled into view when the proposal comes", async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `line ${i}`);
    const file = `${dir}/long.txt`;
    gate.prepare("task1::c5", file, lines.join("\n") + "\n");
    const tab = await until("the prepared diff", () => diffTabs()[0]);
    const afterUri = (tab.input as vscode.TabInputTextDiff).modified;
    const editor = () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === afterUri.toString());
    await until("the right side's editor", editor);
    assert.ok(
      editor()!.visibleRanges.every((r) => r.end.line < 250),
      "opened at the top",
    );
    const after = lines.map((l, i) => (i === 270 ? "line 270, changed" : l)).join("\n") + "\n";
    const decided = gate.request(request("c5", file, lines.join("\n") + "\n", after), new AbortController().signal);
    await until("line 271 in view", () =>
      editor()?.visibleRanges.some((r) => r.start.line <= 270 && r.end.line >= 270),
    );
    gate.decide("task1::c5", { type: "approve" });
    assert.deepEqual(await decided, { type: "approve" });
  });

  test("Approve before the open diff has reloaded the proposal approves the proposal, not the text it showed", async () => {
    const file = `${dir}/quick.txt`;
    gate.prepare("task1::c6", file, "one\n");
    const tab = await until("the prepared diff", () => diffTabs()[0]);
    await vscode.workspace.openTextDocument((tab.input as vscode.TabInputTextDiff).modified);
    const decided = gate.request(request("c6", file, "one\n", "ONE\n"), new AbortController().signal);
    gate.decide("task1::c6", { type: "approve" });
    assert.deepEqual(await decided, { type: "approve" });
  });

  test("a prepared diff no request comes for closes, with the group it split off", async () => {
    const groups = vscode.window.tabGroups.all.length;
    gate.prepare("task1::c2", `${dir}/b.txt`, "b\n");
    await until("the prepared diff", () => diffTabs().length === 1);
    assert.equal(vscode.window.tabGroups.all.length, groups + 1);
    gate.drop("task1::c2");
    await until("the diff to close", () => diffTabs().length === 0 && vscode.window.tabGroups.all.length === groups);
    assert.deepEqual(gate.pending(), []);
  });

  test("a request for another file closes the prepared diff and opens its own; a file changed meanwhile shows as it is now", async () => {
    gate.prepare("task1::c3", `${dir}/guess.txt`, "guess\n");
    await until("the prepared diff", () => diffTabs().length === 1);
    const controller = new AbortController();
    const decided = gate.request(request("c3", `${dir}/real.txt`, "real\n", "REAL\n"), controller.signal);
    const uris = gate.proposalUris("task1::c3")!;
    await until("only the request's diff", () => {
      const tabs = diffTabs();
      return (
        tabs.length === 1 && (tabs[0]!.input as vscode.TabInputTextDiff).modified.toString() === uris.after.toString()
      );
    });
    assert.equal((await vscode.workspace.openTextDocument(uris.after)).getText(), "REAL\n");
    gate.decide("task1::c3", { type: "reject" });
    assert.equal((await decided).type, "reject");

    // Same file, but it changed between the prepared diff and the proposal: the left side follows.
    gate.prepare("task1::c4", `${dir}/moving.txt`, "old\n");
    await until("the prepared diff", () => diffTabs().length === 1);
    const second = gate.request(request("c4", `${dir}/moving.txt`, "new\n", "NEW\n"), controller.signal);
    const moving = gate.proposalUris("task1::c4")!;
    const left = await vscode.workspace.openTextDocument(moving.before);
    await until("the left side as the file is now", () => left.getText() === "new\n");
    await until(
      "the proposal on the right",
      async () => (await vscode.workspace.openTextDocument(moving.after)).getText() === "NEW\n",
    );
    controller.abort();
    assert.equal((await second).type, "reject");
  });

  test("the diff worker is warmed once for a while, with nothing shown", async () => {
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    const shown = tabs();
    const groups = vscode.window.tabGroups.all.length;
    // The worker found the warm-up document's link: it runs.
    assert.equal(await gate.warmUp.warm(), true);
    assert.equal(await gate.warmUp.warm(), false, "asked again only after minutes");
    assert.deepEqual(tabs(), shown);
    assert.equal(vscode.window.tabGroups.all.length, groups);
    assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === gate.warmUp.uri.toString()));
  });

  test("an open diff takes the proposal once the chat shows its card (the card goes first)", async () => {
    const patient = new ReviewGate({ log, scheme: "fathom-early-card-test", cardWaitMs: 60_000 });
    try {
      patient.prepare("task1::k1", `${dir}/card.txt`, "first\n");
      await until("the prepared diff", () => diffTabs().length === 1);
      const controller = new AbortController();
      const decided = patient.request(request("k1", `${dir}/card.txt`, "first\n", "second\n"), controller.signal);
      const after = await vscode.workspace.openTextDocument(patient.proposalUris("task1::k1")!.after);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(after.getText(), "first\n", "the open diff waits for the card");
      patient.cardShown("task1::k1");
      await until("the proposal in the open diff", () => after.getText() === "second\n");
      // Approved as proposed: the right side is the proposal, unchanged.
      assert.deepEqual(patient.decide("task1::k1", { type: "approve" }), { type: "approve" });
      assert.equal((await decided).type, "approve");
    } finally {
      patient.dispose();
    }
  });

  test("a window's first diff: no early diff, the card does not wait for it, the diff opens once the card is shown; Approve before it opened approves the proposal", async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    FirstDiff.forgetForTests();
    const fresh = new ReviewGate({ log, scheme: "fathom-first-diff-test", cardWaitMs: 60_000 });
    try {
      fresh.prepare("task1::n1", `${dir}/first.txt`, "one\n");
      const controller = new AbortController();
      const pending: string[] = [];
      fresh.onDidChange((c) => c.type === "pending" && pending.push(c.toolCallId));
      const decided = fresh.request(request("n1", `${dir}/first.txt`, "one\n", "ONE\n"), controller.signal);
      assert.deepEqual(pending, ["task1::n1"], "the card's request is out at once");
      await new Promise((r) => setTimeout(r, 400));
      assert.equal(diffTabs().length, 0, "no diff editor while the model wrote, none before the card is shown");
      // Approved before the diff opened: the proposal, as the card shows it.
      assert.deepEqual(fresh.decide("task1::n1", { type: "approve" }), { type: "approve" });
      assert.equal((await decided).type, "approve");
      // The next request: its diff opens once the card is shown.
      const second = fresh.request(request("n2", `${dir}/first.txt`, "one\n", "two\n"), controller.signal);
      fresh.cardShown("task1::n2");
      await until("the diff beside the card", () => diffTabs().length === 1);
      fresh.decide("task1::n2", { type: "reject" });
      assert.equal((await second).type, "reject");
    } finally {
      fresh.dispose();
      new FirstDiff(() => false).opened();
    }
  });

  test("an inline edit's diff opens early even in a window's first diff (it has no card: the diff is where the edit streams)", async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    FirstDiff.forgetForTests();
    const inline = new ReviewGate({ log, scheme: "fathom-first-inline-test", cardWaitMs: 60_000 });
    try {
      inline.prepare("task1::i1", `${dir}/inline.txt`, "one\n", undefined, true);
      await until("the inline edit's early diff", () => diffTabs().length === 1);
      inline.previewPrepared("task1::i1", "one\ntwo\n");
      const after = await vscode.workspace.openTextDocument((diffTabs()[0]!.input as vscode.TabInputTextDiff).modified);
      await until("the edit streaming into the diff", () => after.getText() === "one\ntwo\n");
      inline.drop("task1::i1");
    } finally {
      inline.dispose();
      new FirstDiff(() => false).opened();
    }
  });
});
