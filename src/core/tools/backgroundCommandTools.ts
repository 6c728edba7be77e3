import { z } from "zod";
import type { BackgroundCommandStatus, Executor } from "../executor/types";
import { defineTool, type Tool, type ToolResult } from "./tool";

const HandleSchema = z.object({ handle: z.string().min(1).describe('Handle from execute, e.g. "cmd-1"') });

/**
 * `command_output` and `stop_command`: for commands `execute` left running past their timeout
 * (dev servers, watchers). Only offered when the executor can leave commands running.
 */
export function createBackgroundCommandTools(executor: Executor): Tool[] {
  const { readBackground, stopBackground } = executor;
  if (!readBackground || !stopBackground) return [];
  /** A tool over a command's handle: reads it (or stops it) and says what it printed. */
  const handleTool = (
    name: string,
    description: string,
    kind: "read" | "other",
    act: typeof readBackground,
    stopped: boolean,
  ) =>
    defineTool({
      name,
      description,
      schema: HandleSchema,
      kind,
      async run({ handle }) {
        return describe(handle, await act.call(executor, handle), stopped);
      },
    });
  return [
    handleTool(
      "command_output",
      "New output of a command execute left running, and whether it still runs.",
      "read",
      readBackground,
      false,
    ),
    handleTool(
      "stop_command",
      "Stop a command execute left running (Ctrl+C, then kill). Returns its last output.",
      "other",
      stopBackground,
      true,
    ),
  ] as unknown as Tool[];
}

function describe(handle: string, status: BackgroundCommandStatus | undefined, stopping: boolean): ToolResult {
  if (!status) {
    return {
      content: `No command is running as "${handle}" (it finished and its output was read, or the handle is wrong). Run it again with execute if you need it.`,
      isError: true,
    };
  }
  const output = status.output.trim() === "" ? "(no new output)" : status.output.replace(/\s+$/, "");
  const state = status.running
    ? `[Still running as ${handle}.]`
    : stopping
      ? `[Stopped. Exit code: ${status.exitCode ?? "unknown"}]`
      : `[Finished. Exit code: ${status.exitCode ?? "unknown"}]`;
  return { content: `$ ${status.command}\n${output}\n\n${state}`, details: { ...status, handle } };
}
