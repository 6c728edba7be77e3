import { z } from "zod";
import type { BackendProtocol } from "../backends/protocol";
import { nestedRunnerOf, runContextOf, toolError } from "../middleware/types";
import { detectTestCommand, LOOKED_FOR } from "./testCommandDetection";
import { testReport } from "./testReport";
import { defineTool, type Tool, type ToolResult } from "./tool";

export const RUN_TESTS = "run_tests";

/** What the approvals say when the person changed the command before approving it. */
const PERSON_EDITED = /^The person changed the arguments before approving; ran with (\{.*\})\.\n\n/;

export interface RunTestsOptions {
  /** The `execute` tool: the command runs as one of its calls (approval, deny list, sandbox, terminal). */
  execute: Tool;
  /** Where the test command is looked for. */
  backend: BackendProtocol;
  /** The person's (or the workspace's) `fathom.testCommand`: wins over what is found. */
  testCommand?: string;
}

/**
 * `run_tests`: the workspace's test command (testCommandDetection.ts), run as a call of `execute`
 * through the whole middleware stack (so it is asked, denied, sandboxed and shown in the terminal
 * as any command, with the command itself on the card), and its output read into counts and one
 * entry per failure (testReport.ts) instead of the whole log.
 */
export function createRunTestsTool(options: RunTestsOptions): Tool {
  const tool = defineTool({
    name: RUN_TESTS,
    description: "Run the project's tests (asked as execute): counts; per failure test, file:line, message",
    schema: z.object({
      pattern: z.string().trim().min(1).optional().describe("Test name filter"),
    }),
    kind: "execute",
    // The call itself only finds the command; the command is asked for as its own execute call.
    approval: "auto",
    async run({ pattern }, ctx): Promise<ToolResult> {
      const runNested = nestedRunnerOf(ctx);
      if (!runNested) return toolError("run_tests can only run inside an agent's task. Run the tests with execute.");
      const found = await detectTestCommand(options.backend, {
        ...(options.testCommand ? { configured: options.testCommand } : {}),
        ...(pattern ? { pattern } : {}),
      });
      if (!found)
        return toolError(
          `No test command found in the workspace (looked for ${LOOKED_FOR}). Find how the project runs its tests (README, CI files, Makefile) and run that with execute, or ask the person to set fathom.testCommand.`,
          { notFound: true },
        );
      const result = await runNested({
        id: `${ctx.toolCallId}_run`,
        name: options.execute.name,
        tool: options.execute,
        args: { command: found.command },
      });
      const facts = { command: found.command, source: found.source };
      const d = result.details ?? {};
      // Not run, or not finished: what execute said is what the model needs.
      if (d.rejected || d.denied || d.cancelled || d.stillRunning || d.exitCode === undefined)
        return { ...result, details: { ...d, ...facts } };
      const saved = typeof d.evictedTo === "string" ? runContextOf(ctx)?.state.files[d.evictedTo] : undefined;
      let content = saved ?? result.content;
      let command = found.command;
      const edited = PERSON_EDITED.exec(content);
      if (edited) {
        content = content.slice(edited[0].length);
        const args = JSON.parse(edited[1]!) as { command?: unknown };
        if (typeof args.command === "string") command = args.command;
      }
      const { output, notes } = splitNotes(content);
      const exitCode = typeof d.exitCode === "number" ? d.exitCode : undefined;
      const report = testReport(command, output, exitCode);
      const from = `(The test command came from ${found.source}.${edited ? " The person changed it before approving." : ""})`;
      return {
        content: [report.text, ...notes, from].join("\n"),
        ...(report.passed ? {} : { isError: true }),
        details: {
          ...facts,
          command,
          exitCode: d.exitCode,
          passed: report.passed,
          ...(report.counts ? { counts: report.counts } : {}),
          ...(report.failures ? { failures: report.failures } : {}),
          ...(d.timedOut ? { timedOut: true } : {}),
          ...(d.via ? { via: d.via } : {}),
        },
      };
    },
  });
  return tool as unknown as Tool;
}

/** execute's result is the output, a blank line, then its notes one per line in brackets; the exit code is in the report. */
function splitNotes(content: string): { output: string; notes: string[] } {
  const at = content.lastIndexOf("\n\n[");
  if (at < 0) return { output: content, notes: [] };
  const tail = content.slice(at + 2).split("\n");
  if (!tail.every((l) => l.startsWith("["))) return { output: content, notes: [] };
  return {
    output: content.slice(0, at),
    notes: tail.filter((l) => !/^\[Exit code: /.test(l)),
  };
}
