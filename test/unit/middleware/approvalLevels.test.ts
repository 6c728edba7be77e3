// Issue 42, item 1: what each permission level lets run unasked, and what it never does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAgent } from "../../../src/core/agent/createAgent";
import type { ApprovalGate, ApprovalRequest } from "../../../src/core/approval";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import type { Executor } from "../../../src/core/executor/types";
import type { ApprovalLevel } from "../../../src/core/trust/approvalLevels";
import { FakeModel } from "../../support/fakeModel";
import { collect } from "../../support/agentTestKit";

function recordingGate(): ApprovalGate & { asked: ApprovalRequest[] } {
  const asked: ApprovalRequest[] = [];
  return {
    asked,
    async request(req) {
      asked.push(req);
      return { type: "reject", reason: "no" };
    },
  };
}

function workspace(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-levels-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  return dir;
}

const recordingExecutor = (ran: string[]): Executor => ({
  async run(command) {
    ran.push(command);
    return {
      output: "ran",
      exitCode: 0,
      timedOut: false,
      cancelled: false,
      truncated: false,
      durationMs: 1,
      via: "fake",
    };
  },
});

/** One turn of calls at `level` (a getter: the test may change it between calls), then an answer. */
async function runAt(
  level: () => ApprovalLevel,
  calls: { name: string; arguments: Record<string, unknown> }[][],
  o: { dir?: string; commands?: { allow?: string[]; deny?: string[]; alwaysAsk?: string } } = {},
) {
  const dir = o.dir ?? workspace();
  const gate = recordingGate();
  const ran: string[] = [];
  const agent = createAgent({
    model: new FakeModel([...calls.map((toolCalls) => ({ toolCalls })), { text: "done" }]),
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    executor: recordingExecutor(ran),
    rules: false,
    approvalGate: gate,
    approvalLevel: level,
    ...(o.commands ? { commands: o.commands } : {}),
  });
  const { done } = await collect(agent, "go");
  return { dir, gate, ran, done };
}

const write = (file: string, content: string) => ({ name: "write_file", arguments: { file_path: file, content } });
const run = (command: string, extra: Record<string, unknown> = {}) => ({
  name: "execute",
  arguments: { command, ...extra },
});

test("Ask: an edit waits on the person (here: rejected, nothing written)", async () => {
  const { dir, gate } = await runAt(() => "ask", [[write("/a.txt", "x")]]);
  assert.deepEqual(
    gate.asked.map((r) => r.toolName),
    ["write_file"],
  );
  assert.equal(existsSync(path.join(dir, "a.txt")), false);
});

test("Edits auto: an edit lands unasked, through the stale-write guard; a command still asks", async () => {
  const dir = workspace({ "b.txt": "old\n" });
  const { gate, ran } = await runAt(
    () => "editsAuto",
    [[write("/a.txt", "new file\n")], [write("/b.txt", "never read\n")], [run("npm test")]],
    { dir },
  );
  assert.equal(readFileSync(path.join(dir, "a.txt"), "utf8"), "new file\n");
  assert.equal(readFileSync(path.join(dir, "b.txt"), "utf8"), "old\n", "an unread file is not overwritten");
  assert.deepEqual(
    gate.asked.map((r) => r.toolName),
    ["execute"],
  );
  assert.deepEqual(ran, []);
});

test("Edits auto: the command allow list still runs a command unasked, and deny still wins", async () => {
  const { gate, ran, done } = await runAt(() => "editsAuto", [[run("npm test"), run("git push origin main")]], {
    commands: { allow: ["npm test*", "git push*"], deny: ["git push*"] },
  });
  assert.deepEqual(ran, ["npm test"]);
  assert.equal(gate.asked.length, 0);
  assert.match(done.state.messages.filter((m) => m.role === "tool")[1]!.content, /deny pattern "git push\*"/);
});

test("Edits auto and Autopilot: a secret file's edit is still asked, and says why", async () => {
  for (const level of ["editsAuto", "autopilot"] as const) {
    const { dir, gate } = await runAt(() => level, [[write("/.env", "KEY=1\n")]]);
    assert.equal(gate.asked.length, 1, level);
    assert.match(gate.asked[0]!.reason ?? "", /may hold secrets/);
    assert.equal(existsSync(path.join(dir, ".env")), false);
  }
});

test("Autopilot: commands run unasked; deny never; leaving the sandbox and an unavailable sandbox still ask", async () => {
  const { gate, ran, done } = await runAt(
    () => "autopilot",
    [[run("npm test"), run("rm -rf build"), run("git remote add x y", { sandbox: false })]],
    { commands: { deny: ["rm -rf*"] } },
  );
  assert.deepEqual(ran, ["npm test"]);
  assert.match(done.state.messages.filter((m) => m.role === "tool")[1]!.content, /deny pattern/);
  assert.deepEqual(
    gate.asked.map((r) => [r.command, r.mustAsk]),
    [["git remote add x y", true]],
  );
  // The host's policy where the sandbox should run but cannot: every command asked.
  const unsandboxed = await runAt(() => "autopilot", [[run("npm test")]], {
    commands: { alwaysAsk: "The OS sandbox cannot run here." },
  });
  assert.deepEqual(unsandboxed.ran, []);
  assert.equal(unsandboxed.gate.asked[0]?.mustAsk, true);
});

test("the level is read at each call: a change mid-task applies from the next call", async () => {
  let level: ApprovalLevel = "ask";
  const dir = workspace();
  const gate: ApprovalGate & { asked: string[] } = {
    asked: [],
    async request(req) {
      this.asked.push(String(req.args.file_path));
      // The person switches to Edits auto while answering the first card.
      level = "editsAuto";
      return { type: "approve" };
    },
  };
  const agent = createAgent({
    model: new FakeModel([
      { toolCalls: [write("/one.txt", "1")] },
      { toolCalls: [write("/two.txt", "2")] },
      { text: "done" },
    ]),
    workspaceRoot: dir,
    backend: new FilesystemBackend({ rootDir: dir }),
    rules: false,
    approvalGate: gate,
    approvalLevel: () => level,
  });
  await collect(agent, "go");
  assert.deepEqual(gate.asked, ["/one.txt"]);
  assert.equal(readFileSync(path.join(dir, "two.txt"), "utf8"), "2");
});

test("Autopilot's budget stops the run at its step limit, and only while the level is Autopilot", async () => {
  let level: ApprovalLevel = "autopilot";
  const dir = workspace();
  const turns = Array.from({ length: 6 }, (_, i) => ({ toolCalls: [write(`/f${i}.txt`, String(i))] }));
  const make = () =>
    createAgent({
      model: new FakeModel([...turns, { text: "done" }]),
      workspaceRoot: dir,
      backend: new FilesystemBackend({ rootDir: dir }),
      rules: false,
      approvalGate: recordingGate(),
      approvalLevel: () => level,
      extraLimits: () => (level === "autopilot" ? { maxSteps: 3, spendCapUsd: 2, name: "Autopilot" } : undefined),
    });
  const stopped = await collect(make(), "go");
  assert.equal(stopped.done.reason, "max_steps");
  assert.match(stopped.done.message ?? "", /Autopilot's step limit/);
  level = "editsAuto";
  const finished = await collect(make(), "go");
  assert.equal(finished.done.reason, "completed");
});
