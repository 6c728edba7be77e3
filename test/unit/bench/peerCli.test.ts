// The VS Code peers' CLIs in `npm run bench -- tasks`: what each is run with, and how the trial
// line reads its output.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { peerCommand, peerOutcome, PEER_CLIS, type PeerContext } from "../../../bench/taskHarnesses/peerCli";

function context(): PeerContext {
  const folder = mkdtempSync(path.join(os.tmpdir(), "peer-cli-test-"));
  return {
    bin: "/cache/peer-cli/bin",
    url: "http://127.0.0.1:5555/v1",
    modelId: "qwen2.5-coder-1.5b-instruct",
    prompt: "Solve this Python exercise.",
    workspace: path.join(folder, "ws"),
    folder,
  };
}

test("every peer runs headless on the prompt, with its own HOME and no network but 127.0.0.1", () => {
  for (const peer of PEER_CLIS) {
    const ctx = context();
    try {
      const c = peerCommand(peer, ctx);
      assert.equal(c.cmd, ctx.bin);
      assert.equal(c.args.at(-1), ctx.prompt, peer);
      assert.equal(c.env.HOME, path.join(ctx.folder, "home"), peer);
      assert.equal(c.env.HTTPS_PROXY, "http://127.0.0.1:9", peer);
      assert.match(String(c.env.NO_PROXY), /^127\.0\.0\.1,localhost$/, peer);
      // The model is reached at the bench's proxy, by its id.
      const all = JSON.stringify([c.args, c.setup, c.env.OPENCODE_CONFIG_CONTENT, c.env.KILO_CONFIG_CONTENT]);
      assert.ok(all.includes(ctx.url) && all.includes(ctx.modelId), peer);
    } finally {
      rmSync(ctx.folder, { recursive: true, force: true });
    }
  }
});

test("each peer approves edits and commands its own way", () => {
  const ctx = context();
  try {
    const qwen = peerCommand("qwen-code", ctx);
    assert.ok(qwen.args.includes("--yolo") && qwen.args.includes("--bare"));
    assert.equal(qwen.env.QWEN_USAGE_STATISTICS_ENABLED, "false");
    const cline = peerCommand("cline", ctx);
    assert.deepEqual(cline.args.slice(cline.args.indexOf("--auto-approve"), cline.args.indexOf("--auto-approve") + 2), [
      "--auto-approve",
      "true",
    ]);
    assert.equal(cline.setup?.[0]?.args[0], "auth");
    const settings = path.join(ctx.folder, "cline-data", "settings", "global-settings.json");
    assert.ok(existsSync(settings));
    assert.equal(JSON.parse(readFileSync(settings, "utf8")).telemetryOptOut, true);
    for (const peer of ["opencode", "kilo"] as const) {
      const c = peerCommand(peer, ctx);
      assert.deepEqual(c.args.slice(0, 2), ["run", "--format"]);
      assert.ok(c.args.includes("--auto"));
      const config = JSON.parse(String(c.env[peer === "kilo" ? "KILO_CONFIG_CONTENT" : "OPENCODE_CONFIG_CONTENT"]));
      assert.equal(config.provider.local.options.baseURL, ctx.url);
      assert.deepEqual(config.permission, { edit: "allow", bash: "allow", webfetch: "deny" });
    }
  } finally {
    rmSync(ctx.folder, { recursive: true, force: true });
  }
});

test("the trial line says how a peer's run ended, from its JSON output", () => {
  const qwen = [
    JSON.stringify({ type: "system", subtype: "init" }),
    JSON.stringify({ type: "assistant", message: { content: [{ type: "tool_use", name: "read_file" }] } }),
    JSON.stringify({ type: "result", subtype: "success", num_turns: 2 }),
  ].join("\n");
  assert.equal(peerOutcome("qwen-code", qwen), "success, 2 turns, tools read_file");
  assert.equal(peerOutcome("qwen-code", "Warning: something\n"), "no result event");
  const cline = [
    JSON.stringify({ type: "agent_event", event: { type: "tool_call_start", toolName: "editor" } }),
    JSON.stringify({ type: "run_result", finishReason: "error", iterations: 1, text: "Cannot connect to API" }),
  ].join("\n");
  assert.equal(peerOutcome("cline", cline), "error, 1 iterations, tools editor×1: Cannot connect to API");
  const open = [
    JSON.stringify({ type: "step_start" }),
    JSON.stringify({ type: "tool_use", part: { type: "tool", tool: "bash" } }),
    JSON.stringify({ type: "step_start" }),
  ].join("\n");
  assert.equal(peerOutcome("opencode", open), "2 steps, tools bash×1");
  assert.equal(peerOutcome("kilo", ""), "no events");
});
