import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { Log, redactSecrets } from "../../../src/host/log";
import { approvalFor, readSettings, setupProblemFor } from "../../../src/host/settings";
import { initialChatState } from "../../../src/protocol";
import { toSavedTask } from "../../../src/host/tasks/taskRecord";
import { TaskStore } from "../../../src/host/tasks/taskStore";

const temp = () => mkdtempSync(path.join(os.tmpdir(), "fathom-store-"));

describe("task store", () => {
  it("saves atomically, coalesces writes and lists the newest first", async () => {
    const dir = temp();
    const store = new TaskStore(dir);
    const state = { ...initialChatState(), title: "A" };
    for (let i = 0; i < 20; i++)
      void store.save(toSavedTask({ ...state, title: `A${i}` }, { id: "a1", createdAt: 1, now: 10 + i }, null));
    await store.save(toSavedTask({ ...state, title: "B" }, { id: "b1", createdAt: 1, now: 100 }, null));
    await store.flush();
    assert.deepEqual(
      (await store.list()).map((t) => t.title),
      ["B", "A19"],
    );
    const loaded = await store.load("a1");
    assert.ok(!("error" in loaded) && loaded.title === "A19");
    assert.deepEqual(readdirSync(path.join(dir, "tasks")).sort(), ["a1.json", "b1.json"], "no temp files left");
    const again = new TaskStore(dir);
    assert.equal((await again.list()).length, 2);
  });

  it("refuses ids that could leave its folder, and explains an unreadable file", async () => {
    const dir = temp();
    const store = new TaskStore(dir);
    const bad = await store.load("../../etc/passwd");
    assert.ok("error" in bad);
    mkdirSync(path.join(dir, "tasks"), { recursive: true });
    writeFileSync(path.join(dir, "tasks", "x1.json"), "{ not json");
    const broken = await store.load("x1");
    assert.ok("error" in broken && /could not be read/.test(broken.error) && /kept/.test(broken.error));
  });

  it("passes every file through the redaction", async () => {
    const dir = temp();
    const key = "sk-proj-ABCDEFGHIJKLMNOP1234";
    const store = new TaskStore(dir, (t) => redactSecrets(t, [key]));
    await store.save(
      toSavedTask({ ...initialChatState(), title: `key ${key}` }, { id: "k1", createdAt: 1, now: 2 }, null),
    );
    for (const file of [path.join(dir, "index.json"), store.taskFile("k1")])
      assert.ok(!readFileSync(file, "utf8").includes(key));
  });
});

describe("log redaction", () => {
  it("removes known keys and anything shaped like one", () => {
    assert.equal(redactSecrets("key=abcdefgh12345678!", ["abcdefgh12345678"]), "key=***!");
    assert.equal(redactSecrets("auth: Bearer abc.def-ghi_jkl"), "auth: Bearer ***");
    assert.equal(redactSecrets("sk-ant-api03-xyzXYZ0123456789"), "sk-ant-***");
    assert.equal(redactSecrets("a short word sk-1 stays"), "a short word sk-1 stays");
  });

  it("never writes a registered key to the channel", () => {
    const written: string[] = [];
    const sink = (m: string | Error) => written.push(String(m));
    const log = new Log({ trace: sink, debug: sink, info: sink, warn: sink, error: sink });
    log.addSecret("local-secret-value-123");
    log.info("sending with local-secret-value-123");
    log.error("failed: local-secret-value-123");
    assert.deepEqual(written, ["sending with ***", "failed: ***"]);
    assert.ok(log.recent().every((l) => !l.includes("local-secret")));
  });
});

describe("settings", () => {
  const from = (values: Record<string, unknown>) =>
    readSettings({ get: <T>(k: string, d: T) => (k in values ? (values[k] as T) : d) });

  it("reads fathom.* with safe defaults and ignores bad values", () => {
    const s = from({ provider: "bogus", maxSteps: -3, "commands.allow": ["npm test*", 3, ""] });
    assert.equal(s.provider, "openai");
    assert.equal(s.maxSteps, 100);
    assert.deepEqual(s.commands.allow, ["npm test*"]);
    assert.deepEqual(s.autoApprove, { read: true, edit: false, execute: false });
    assert.equal(s.commands.timeoutSeconds, 120);
    assert.equal(
      from({ "commands.timeoutSeconds": 0 }).commands.timeoutSeconds,
      120,
      "a nonsensical timeout falls back",
    );
    assert.equal(from({ "commands.timeoutSeconds": 99999 }).commands.timeoutSeconds, 3600);
    assert.equal(from({ "commands.timeoutSeconds": 30 }).commands.timeoutSeconds, 30);
  });

  it("asks for a key only for official endpoints", () => {
    assert.equal(setupProblemFor(from({ provider: "anthropic" }), false)?.action, "fathom.setApiKey");
    assert.match(setupProblemFor(from({ provider: "anthropic" }), false)!.message, /ANTHROPIC_API_KEY/);
    assert.equal(setupProblemFor(from({ provider: "anthropic" }), true), null);
    assert.equal(setupProblemFor(from({ provider: "openai-compatible" }), false), null);
    assert.equal(setupProblemFor(from({ provider: "openai", baseUrl: "http://localhost:8080/v1" }), false), null);
    assert.equal(setupProblemFor(from({ baseUrl: "localhost:8080" }), true)?.action, "fathom.openSettings");
  });

  it("maps auto-approve to the policy; Restricted Mode asks (and ignores the allow list)", () => {
    const s = from({ "autoApprove.edit": true, "commands.allow": ["ls"] });
    assert.deepEqual(approvalFor(s, false), {
      policy: { read: "auto", edit: "auto", execute: "ask", other: "auto" },
      commands: { allow: ["ls"], deny: [] },
    });
    assert.deepEqual(approvalFor(s, true).policy, { read: "auto", edit: "ask", execute: "ask", other: "auto" });
    assert.deepEqual(approvalFor(s, true).commands.allow, []);
  });
});
