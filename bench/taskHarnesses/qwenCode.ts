// Qwen Code (@qwen-code/qwen-code, the CLI beside its VS Code companion), headless:
//
//   qwen --bare --auth-type openai --openai-base-url URL --openai-api-key local -m ID --yolo
//        --output-format stream-json PROMPT
//
// A positional prompt is its one-shot (non-interactive) mode; --yolo approves every tool call
// (edits and shell commands) without asking; --output-format stream-json prints one JSON event a
// line, the last a "result". --bare is its documented minimal mode (no skills, extensions, MCP
// servers, memory files or settings; tools: read_file, edit, run_shell_command, notebook_edit and
// its goal tools): without it the first request (system prompt, 20-odd tool schemas, the list of
// skills) is about 17,000 tokens and llama-server answers 400 at the bench's 16,384-token context,
// so not one model answer comes back; with it the first request is about 7,300 tokens.
// QWEN_USAGE_STATISTICS_ENABLED=false turns its usage statistics off (read even in --bare),
// QWEN_DISABLE_AUTO_TITLE=1 keeps it from asking the model for a session title (an extra call),
// QWEN_CODE_SUPPRESS_YOLO_WARNING=1 drops the warning that --yolo runs without a sandbox.
// It needs Node 22 or newer: install-peer-cli.sh brings Node 24 and the CLI runs under it.
import { jsonLines, peerEnv, type PeerCommand, type PeerContext } from "./peerCli";

export function qwenCodeCommand(ctx: PeerContext): PeerCommand {
  return {
    cmd: ctx.bin,
    args: [
      "--bare",
      "--auth-type",
      "openai",
      "--openai-base-url",
      ctx.url,
      "--openai-api-key",
      "local",
      "--model",
      ctx.modelId,
      "--yolo",
      "--output-format",
      "stream-json",
      ctx.prompt,
    ],
    env: peerEnv(ctx, {
      QWEN_USAGE_STATISTICS_ENABLED: "false",
      QWEN_DISABLE_AUTO_TITLE: "1",
      QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
    }),
  };
}

/** Its last "result" event: subtype (success, error_during_execution, …), turns, the error if any. */
export function qwenCodeOutcome(stdout: string): string {
  const events = jsonLines(stdout);
  const result = events.findLast((e) => e.type === "result") as
    { subtype?: string; num_turns?: number; is_error?: boolean; error?: { message?: string } } | undefined;
  if (!result) return "no result event";
  const tools = events.flatMap((e) =>
    e.type === "assistant"
      ? (((e.message as { content?: { type?: string; name?: string }[] })?.content ?? [])
          .filter((c) => c.type === "tool_use")
          .map((c) => c.name ?? "?") as string[])
      : [],
  );
  return `${result.subtype ?? "result"}, ${result.num_turns ?? "?"} turns, tools ${tools.length ? tools.join(" ") : "none"}${
    result.error?.message ? `: ${result.error.message.slice(0, 160)}` : ""
  }`;
}
