// Issue 42, item 1: where the permission level comes from. A workspace may lower it, never raise it.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  AUTOPILOT_NEEDS_SANDBOX,
  AUTOPILOT_SANDBOX_OFF,
  levelWhereSandbox,
  policyAtLevel,
  resolveApprovalLevel,
} from "../../../src/core/trust/approvalLevels";
import { readSettings, type ConfigSource } from "../../../src/host/settings";
import { approvalsView } from "../../../src/host/approvals/approvalsView";

type Layers = { user?: Record<string, unknown>; workspace?: Record<string, unknown>; folder?: Record<string, unknown> };

function config({ user = {}, workspace = {}, folder = {} }: Layers): ConfigSource {
  return {
    get: <T>(key: string, fallback: T) =>
      (key in folder ? folder[key] : key in workspace ? workspace[key] : key in user ? user[key] : fallback) as T,
    inspect: <T>(key: string) => ({
      globalValue: user[key] as T | undefined,
      workspaceValue: workspace[key] as T | undefined,
      workspaceFolderValue: folder[key] as T | undefined,
    }),
  };
}

describe("resolveApprovalLevel", () => {
  it("is Ask when nobody set it, and the person's value otherwise", () => {
    assert.deepEqual(resolveApprovalLevel({}), { level: "ask", chosen: "ask", problems: [] });
    assert.deepEqual(resolveApprovalLevel({ user: "autopilot" }), {
      level: "autopilot",
      chosen: "autopilot",
      problems: [],
    });
  });
  it("lets a workspace or folder lower the level, and says which", () => {
    assert.deepEqual(resolveApprovalLevel({ user: "autopilot", workspace: "editsAuto" }), {
      level: "editsAuto",
      chosen: "autopilot",
      loweredBy: "workspace",
      problems: [],
    });
    assert.equal(
      resolveApprovalLevel({ user: "autopilot", workspace: "editsAuto", folder: "ask" }).loweredBy,
      "folder",
    );
    assert.equal(resolveApprovalLevel({ user: "editsAuto", workspace: "ask", folder: "autopilot" }).level, "ask");
  });
  it("never lets a workspace or folder raise it", () => {
    for (const where of ["workspace", "folder"] as const) {
      const resolved = resolveApprovalLevel({ [where]: "autopilot" });
      assert.equal(resolved.level, "ask");
      assert.equal(resolved.loweredBy, undefined);
      assert.equal(resolveApprovalLevel({ user: "editsAuto", [where]: "autopilot" }).level, "editsAuto");
    }
  });
  it("counts a value that is not a level as unset, and says so", () => {
    const resolved = resolveApprovalLevel({ user: "yolo", workspace: 3 });
    assert.equal(resolved.level, "ask");
    assert.equal(resolved.problems.length, 2);
    assert.match(resolved.problems[0]!, /user settings is "yolo".*"ask", "editsAuto", "autopilot"/);
    // An invalid workspace value does not lower a valid user value either.
    assert.equal(resolveApprovalLevel({ user: "autopilot", workspace: "AUTOPILOT" }).level, "autopilot");
  });
});

describe("the host's settings", () => {
  it("read the level from the layers, and name a workspace that tried to raise it", () => {
    const raised = readSettings(config({ user: { approvals: "editsAuto" }, workspace: { approvals: "autopilot" } }));
    assert.equal(raised.approvals.level, "editsAuto");
    assert.deepEqual(raised.ignoredFromWorkspace, ["fathom.approvals"]);
    const lowered = readSettings(config({ user: { approvals: "autopilot" }, workspace: { approvals: "ask" } }));
    assert.equal(lowered.approvals.level, "ask");
    assert.deepEqual(lowered.ignoredFromWorkspace, []);
  });
  it("give Autopilot 50 calls and $2 unless the person set limits; a workspace may only lower them", () => {
    assert.deepEqual(readSettings(config({})).autopilot, { maxSteps: 50, spendCapUsd: 2 });
    assert.equal(readSettings(config({})).spendCapUsd, undefined);
    assert.deepEqual(readSettings(config({ user: { maxSteps: 20, spendCapUsd: 0.5 } })).autopilot, {
      maxSteps: 20,
      spendCapUsd: 0.5,
    });
    assert.deepEqual(readSettings(config({ user: { maxSteps: 200, spendCapUsd: 10 } })).autopilot, {
      maxSteps: 200,
      spendCapUsd: 10,
    });
    assert.deepEqual(readSettings(config({ workspace: { maxSteps: 900, spendCapUsd: 99 } })).autopilot, {
      maxSteps: 50,
      spendCapUsd: 2,
    });
    assert.deepEqual(readSettings(config({ workspace: { maxSteps: 10, spendCapUsd: 1 } })).autopilot, {
      maxSteps: 10,
      spendCapUsd: 1,
    });
    assert.deepEqual(readSettings(config({ user: { spendCapUsd: -1 } })).autopilot.spendCapUsd, 2);
  });
});

describe("the level where it runs", () => {
  it("is Autopilot only where the OS sandbox runs, else Edits auto with the reason", () => {
    assert.deepEqual(levelWhereSandbox("autopilot", "on"), { level: "autopilot" });
    assert.deepEqual(levelWhereSandbox("autopilot", "unavailable"), {
      level: "editsAuto",
      refused: AUTOPILOT_NEEDS_SANDBOX,
    });
    assert.deepEqual(levelWhereSandbox("autopilot", "off"), { level: "editsAuto", refused: AUTOPILOT_SANDBOX_OFF });
    assert.deepEqual(levelWhereSandbox("editsAuto", "unavailable"), { level: "editsAuto" });
  });
  it("only ever auto-approves more than the per-kind policy", () => {
    const person = { read: "auto", edit: "ask", execute: "auto", other: "auto" } as const;
    assert.equal(policyAtLevel(person, "ask"), person);
    assert.deepEqual(policyAtLevel(person, "editsAuto"), { ...person, edit: "auto" });
    assert.deepEqual(policyAtLevel({ execute: "ask" }, "autopilot"), { execute: "auto", edit: "auto" });
  });
  it("the header's view says why the level is lower than the person's pick", () => {
    const settings = readSettings(config({ user: { approvals: "autopilot" }, workspace: { approvals: "editsAuto" } }));
    const byWorkspace = approvalsView(settings, { restricted: false, sandbox: "on" });
    assert.equal(byWorkspace.level, "editsAuto");
    assert.match(byWorkspace.lowered ?? "", /workspace's settings lower fathom.approvals/);
    const noSandbox = approvalsView(readSettings(config({ user: { approvals: "autopilot" } })), {
      restricted: false,
      sandbox: "unavailable",
    });
    assert.equal(noSandbox.level, "editsAuto");
    assert.equal(noSandbox.refused, AUTOPILOT_NEEDS_SANDBOX);
    assert.equal(noSandbox.autopilotUnavailable, AUTOPILOT_NEEDS_SANDBOX);
    const restricted = approvalsView(readSettings(config({ user: { approvals: "editsAuto" } })), {
      restricted: true,
      sandbox: undefined,
    });
    assert.equal(restricted.level, "ask");
    assert.match(restricted.lowered ?? "", /Restricted Mode/);
    const unchecked = approvalsView(readSettings(config({ user: { approvals: "editsAuto" } })), {
      restricted: false,
      sandbox: undefined,
    });
    assert.deepEqual(unchecked, { level: "editsAuto", chosen: "editsAuto" });
  });
});
