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
  return [
    defineTool({
      name: "command_output",
      description: "New output of a command execute left running, and whether it still runs.",
      schema: HandleSchema,
      kind: "read",
      async run({ handle }) {
        return describe(handle, await readBackground.call(executor, handle), false);
      },
    }),
    defineTool({
      name: "stop_command",
      description: "Stop a command execute left running (Ctrl+C, then kill). Returns its last output.",
      schema: HandleSchema,
      kind: "other",
      async run({ handle }) {
        return describe(handle, await stopBackground.call(executor, handle), true);
      },
    }),
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
