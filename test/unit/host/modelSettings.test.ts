// Model settings: provider vscode, and per-model overrides that only the person's own settings set.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readSettings, setupProblemFor, type ConfigSource } from "../../../src/host/settings";

function config(user: Record<string, unknown>, workspace: Record<string, unknown> = {}): ConfigSource {
  return {
    get: <T>(key: string, fallback: T) => (key in workspace ? workspace[key] : key in user ? user[key] : fallback) as T,
    inspect: <T>(key: string) => ({
      globalValue: user[key] as T | undefined,
      workspaceValue: workspace[key] as T | undefined,
    }),
  };
}

describe("model settings", () => {
  it("fathom.provider may be vscode: no key, no URL needed", () => {
    const s = readSettings(config({ provider: "vscode" }));
    assert.equal(s.provider, "vscode");
    assert.equal(setupProblemFor(s, false), null);
  });

  it("reads the person's overrides, says which entries it left out and why", () => {
    const s = readSettings(
      config({
        modelOverrides: {
          "qwen2.5-coder:14b": { contextWindow: 32768, tools: "text", images: false, price: { input: 0, output: 0 } },
          broken: { tools: "sometimes" },
          typo: { contextWindw: 8192 },
        },
      }),
    );
    assert.deepEqual(s.modelOverrides, {
      "qwen2.5-coder:14b": { contextWindow: 32768, tools: "text", images: false, price: { input: 0, output: 0 } },
    });
    assert.equal(s.modelOverrideProblems.length, 2);
    assert.match(s.modelOverrideProblems[0]!, /fathom\.modelOverrides\["broken"\]\.tools: .*This override is ignored/);
    assert.match(s.modelOverrideProblems[1]!, /fathom\.modelOverrides\["typo"\].*contextWindw/);
  });

  it("a workspace cannot set overrides (a price of 0 would slip past the spend cap), and is reported", () => {
    const s = readSettings(config({}, { modelOverrides: { "gpt-4.1": { price: { input: 0, output: 0 } } } }));
    assert.deepEqual(s.modelOverrides, {});
    assert.ok(s.ignoredFromWorkspace.includes("fathom.modelOverrides"));
  });
});
