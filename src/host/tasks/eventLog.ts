import type { AgentEvent } from "../../core";
import type { Logger } from "../log";

/** One line in the "Fathom" log per tool call, approval, warning and error of a run (never content). */
export function logAgentEvent(
  log: Logger,
  event: AgentEvent,
  startedTools: Map<string, number>,
  now: () => number = Date.now,
): void {
  switch (event.type) {
    case "tool_call_started":
      startedTools.set(event.toolCallId, now());
      break;
    case "tool_call_finished": {
      const ms = now() - (startedTools.get(event.toolCallId) ?? now());
      const line = `Tool ${event.toolName} (${event.toolCallId}) ${event.isError ? "failed" : "done"} in ${ms} ms, ${event.content.length} characters back`;
      if (event.isError) log.warn(line);
      else log.info(line);
      break;
    }
    case "approval_decided":
      log.info(`Approval for ${event.toolName} (${event.toolCallId}): ${event.decision}`);
      break;
    case "warning":
      log.warn(`${event.code}: ${event.message}`);
      break;
    case "hook_ran": {
      const line = `Hook ${event.event}${event.toolName ? ` (${event.toolName})` : ""} from ${event.origin === "user" ? "your own file" : "the workspace"}: ${event.command} in ${event.durationMs} ms, ${event.decision}${event.message ? `: ${event.message.split("\n")[0]}` : ""}`;
      if (event.decision === "failed") log.warn(line);
      else log.info(line);
      break;
    }
    case "error":
      log.error(`${event.kind}: ${event.message}`);
      break;
    case "subagent":
      if (event.event.type === "tool_call_finished" || event.event.type === "error")
        log.info(
          `[${event.subagentType} subagent] ${event.event.type === "error" ? event.event.message : `${event.event.toolName} ${event.event.isError ? "failed" : "done"}`}`,
        );
      break;
    default:
      break;
  }
}
