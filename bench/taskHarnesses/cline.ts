// Cline's CLI (npm `cline`, the agent of Cline's VS Code extension), headless:
//
//   cline auth --data-dir D -p openai -k local -m ID -b URL          (before the timed run)
//   cline --data-dir D --json --auto-approve true -c WORKSPACE -P openai-compatible -m ID PROMPT
//
// `cline auth` is its documented way to point a provider at a server: it writes D/settings/
// providers.json ("openai" is stored as its openai-compatible provider). A prompt as the argument
// runs one task in act mode and exits; --auto-approve true approves every tool (file edits and
// commands), --json prints its events as JSON lines, the last a "run_result". --data-dir keeps all
// its state (settings, sessions, logs) in the trial's folder. D/settings/global-settings.json is
// written first with telemetryOptOut and autoUpdateEnabled false, its own switches for both.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { jsonLines, peerEnv, type PeerCommand, type PeerContext } from "./peerCli";

export function clineCommand(ctx: PeerContext): PeerCommand {
  const data = path.join(ctx.folder, "cline-data");
  mkdirSync(path.join(data, "settings"), { recursive: true });
  writeFileSync(
    path.join(data, "settings", "global-settings.json"),
    JSON.stringify({ telemetryOptOut: true, autoUpdateEnabled: false }, null, 1),
  );
  return {
    setup: [
      {
        cmd: ctx.bin,
        args: ["auth", "--data-dir", data, "-p", "openai", "-k", "local", "-m", ctx.modelId, "-b", ctx.url],
      },
    ],
    cmd: ctx.bin,
    args: [
      "--data-dir",
      data,
      "--json",
      "--auto-approve",
      "true",
      "--cwd",
      ctx.workspace,
      "--provider",
      "openai-compatible",
      "--model",
      ctx.modelId,
      ctx.prompt,
    ],
    env: peerEnv(ctx, {}),
  };
}

/** Its "run_result": why it finished (completed, error, …), its iterations, tools it called. */
export function clineOutcome(stdout: string): string {
  const events = jsonLines(stdout);
  const result = events.findLast((e) => e.type === "run_result") as
    { finishReason?: string; iterations?: number; text?: string } | undefined;
  const tools = new Map<string, number>();
  for (const e of events) {
    const name = (e.event as { toolName?: unknown } | undefined)?.toolName;
    const type = (e.event as { type?: unknown } | undefined)?.type;
    if (typeof name === "string" && type === "tool_call_start") tools.set(name, (tools.get(name) ?? 0) + 1);
  }
  const toolText = [...tools].map(([n, c]) => `${n}×${c}`).join(" ") || "none";
  if (!result) return `no run_result, tools ${toolText}`;
  return `${result.finishReason ?? "finished"}, ${result.iterations ?? "?"} iterations, tools ${toolText}${
    result.finishReason === "error" && result.text ? `: ${result.text.slice(0, 160)}` : ""
  }`;
}
