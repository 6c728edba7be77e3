// OpenCode's CLI (npm `opencode-ai`) and Kilo Code's (npm `@kilocode/cli`, a fork of OpenCode: the
// same commands and config under KILO_* names), headless:
//
//   opencode run --format json --auto --model local/ID --title fathom-bench PROMPT
//   kilo     run --format json --auto --model local/ID --title fathom-bench PROMPT
//
// `run` sends one message and exits when the agent is done; --auto approves every permission not
// explicitly denied (edits and shell commands); --format json prints its events as JSON lines;
// --title names the session (without it, it asks the model for a title: an extra call). The
// server is a provider "local" in the config given inline (OPENCODE_CONFIG_CONTENT /
// KILO_CONFIG_CONTENT), as its docs configure llama.cpp: the bundled @ai-sdk/openai-compatible
// with baseURL at the proxy and the model under its id; the config also turns auto-update and
// sharing off and allows edit and bash. The environment switches off what would reach for the
// network: the models.dev catalogue fetch, LSP downloads, default plugins (and Kilo's telemetry,
// presence and session ingest).
import { jsonLines, peerEnv, type PeerCommand, type PeerContext } from "./peerCli";

export function openCodeCommand(peer: "opencode" | "kilo", ctx: PeerContext): PeerCommand {
  const config = {
    provider: {
      local: {
        npm: "@ai-sdk/openai-compatible",
        name: "llama-server",
        options: { baseURL: ctx.url, apiKey: "local" },
        models: { [ctx.modelId]: { name: ctx.modelId } },
      },
    },
    model: `local/${ctx.modelId}`,
    autoupdate: false,
    share: "disabled",
    permission: { edit: "allow", bash: "allow", webfetch: "deny" },
  };
  const P = peer === "kilo" ? "KILO" : "OPENCODE";
  return {
    cmd: ctx.bin,
    args: [
      "run",
      "--format",
      "json",
      "--auto",
      "--model",
      `local/${ctx.modelId}`,
      "--title",
      "fathom-bench",
      ctx.prompt,
    ],
    env: peerEnv(ctx, {
      [`${P}_CONFIG_CONTENT`]: JSON.stringify(config),
      [`${P}_DISABLE_AUTOUPDATE`]: "1",
      [`${P}_DISABLE_MODELS_FETCH`]: "1",
      [`${P}_DISABLE_LSP_DOWNLOAD`]: "1",
      [`${P}_DISABLE_DEFAULT_PLUGINS`]: "1",
      [`${P}_DISABLE_SHARE`]: "1",
      ...(peer === "kilo"
        ? {
            KILO_TELEMETRY_LEVEL: "off",
            KILO_DISABLE_PRESENCE: "1",
            KILO_DISABLE_SESSION_INGEST: "1",
            KILO_NO_DAEMON: "1",
          }
        : {}),
    }),
  };
}

/** Its events: steps, tools called (by name), the last error if any. */
export function openCodeOutcome(stdout: string): string {
  const events = jsonLines(stdout);
  if (events.length === 0) return "no events";
  const tools = new Map<string, number>();
  let steps = 0;
  let error = "";
  for (const e of events) {
    if (e.type === "step_start") steps++;
    const part = e.part as { type?: string; tool?: string } | undefined;
    if (e.type === "tool_use" && part?.tool) tools.set(part.tool, (tools.get(part.tool) ?? 0) + 1);
    if (e.type === "error") error = JSON.stringify(e.error ?? e).slice(0, 160);
  }
  return `${steps} steps, tools ${[...tools].map(([n, c]) => `${n}×${c}`).join(" ") || "none"}${error ? `; error ${error}` : ""}`;
}
