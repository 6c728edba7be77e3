import type { AgentEvent } from "../core/run/events";

export interface RenderTarget {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  /** Secrets to blank out of anything printed (the API key). */
  secrets: readonly string[];
}

/** Strips secrets from text about to be printed. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) if (secret.length >= 8) result = result.split(secret).join("[redacted]");
  return result;
}

/** `--json`: one event per line. */
export function jsonRenderer(target: RenderTarget): (event: AgentEvent) => void {
  return (event) => target.out.write(`${redact(JSON.stringify(event), target.secrets)}\n`);
}

const KEY_ARGS = ["file_path", "path", "pattern", "command", "description"] as const;

/** A one-line summary of a call's arguments for the activity log. */
export function summarizeArgs(args: unknown): string {
  if (typeof args !== "object" || args === null) return "";
  const record = args as Record<string, unknown>;
  for (const key of KEY_ARGS) {
    const value = record[key];
    if (typeof value === "string") return value.length > 80 ? `${value.slice(0, 77)}…` : value;
  }
  return "";
}

/**
 * Human output: the answer streams to stdout; tool activity, todos, warnings and the final
 * status go to stderr, so `fathom run ... > answer.txt` keeps just the answer.
 */
export function humanRenderer(
  target: RenderTarget,
  options: { verboseOutput?: boolean } = {},
): (event: AgentEvent) => void {
  let midLine = false;
  // The run's final error arrives as an error event and again as the done message: print it once.
  let lastError: string | undefined;
  const out = (text: string) => {
    if (!text) return;
    target.out.write(redact(text, target.secrets));
    midLine = !text.endsWith("\n");
  };
  const note = (text: string) => {
    if (midLine) out("\n");
    target.err.write(`${redact(text, target.secrets)}\n`);
  };
  const render = (event: AgentEvent, prefix: string): void => {
    switch (event.type) {
      case "text_delta":
        if (!prefix) out(event.text);
        break;
      case "tool_call_finished": {
        const mark = event.isError ? "✗" : "✓";
        const summary = summarizeArgs(event.args);
        const firstLine = event.isError ? `: ${event.content.split("\n")[0]?.slice(0, 200)}` : "";
        note(`${prefix}${mark} ${event.toolName}${summary ? ` ${summary}` : ""}${firstLine}`);
        break;
      }
      case "tool_output":
        if (options.verboseOutput && !prefix) {
          if (midLine) out("\n");
          target.err.write(redact(event.chunk, target.secrets));
        }
        break;
      case "approval_decided":
        if (event.decision === "reject")
          note(`${prefix}rejected ${event.toolName}${event.reason ? `: ${event.reason}` : ""}`);
        break;
      case "todos_changed":
        note(
          `${prefix}Todos:\n${event.todos
            .map(
              (t) => `  ${t.status === "completed" ? "[x]" : t.status === "in_progress" ? "[>]" : "[ ]"} ${t.content}`,
            )
            .join("\n")}`,
        );
        break;
      case "warning":
        if (event.code !== "model_retry" || !prefix) note(`${prefix}warning: ${event.message}`);
        break;
      case "steered":
        note(`${prefix}→ your message reached the agent: ${event.text.split("\n")[0]!.slice(0, 200)}`);
        break;
      case "question_answered":
        if (event.unanswered) note(`${prefix}? not asked: ${event.unanswered}`);
        break;
      case "hook_ran": {
        const on = event.toolName ? ` ${event.toolName}` : "";
        note(
          `${prefix}hook ${event.event}${on}: ${event.command.split("\n")[0]!.slice(0, 80)} (${event.durationMs} ms, ${event.decision})${event.message ? `: ${event.message.split("\n")[0]!.slice(0, 300)}` : ""}`,
        );
        break;
      }
      case "rules_loaded":
        note(`${prefix}rules: ${event.files.join(", ")}`);
        break;
      case "error":
        if (!prefix) lastError = event.message;
        note(`${prefix}error: ${event.message}`);
        break;
      case "subagent":
        render(event.event, `${prefix}[${event.subagentType}] `);
        break;
      case "done": {
        if (midLine) out("\n");
        const { usage, costUsd } = event.state;
        const tokens = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
        const cost = costUsd > 0 ? `, $${costUsd.toFixed(4)}` : "";
        if (event.reason !== "completed" && event.message && event.message !== lastError) note(event.message);
        note(`(${event.reason}: ${event.state.steps} steps, ${tokens} in / ${usage.outputTokens} out tokens${cost})`);
        break;
      }
      default:
        break;
    }
  };
  return (event) => render(event, "");
}
