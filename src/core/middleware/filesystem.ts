import { z } from "zod";
import { defineTool, type Tool } from "../tools/tool";
import type { Executor } from "../executor/types";
import type { Middleware } from "./types";
import { createBackgroundCommandTools } from "../tools/backgroundCommandTools";
import { createRunTestsTool, RUN_TESTS } from "../tools/runTestsTool";
import { offerAfterFirstTool } from "./afterFirstTool";
import type { BackendProtocol } from "../backends/protocol";

export const DEFAULT_EXECUTE_TIMEOUT_MS = 120_000;
const MAX_EXECUTE_TIMEOUT_S = 3600;

export interface FilesystemMiddlewareOptions {
  /** The file tools (`ls`, `read_file`, `write_file`, `edit_file`, `glob`, `grep`). */
  fileTools: readonly Tool[];
  /** Without an executor there is no `execute` tool. */
  executor?: Executor;
  workspaceRoot: string;
  defaultTimeoutMs?: number;
  /** With an executor: `run_tests` looks for the workspace's test command here. */
  backend?: BackendProtocol;
  /** `fathom.testCommand`: run_tests runs this instead of what it finds. */
  testCommand?: string;
}

const ExecuteSchema = z.object({
  command: z.string().min(1).describe("Shell command line"),
  timeout: z.number().int().min(1).max(MAX_EXECUTE_TIMEOUT_S).optional().describe("Seconds (default 120)"),
  sandbox: z
    .boolean()
    .optional()
    .describe(
      "Commands run in an OS sandbox (workspace writes only, no network). false asks the person to run this one outside it; say why first",
    ),
});

/** `execute`: one shell command in the workspace root, through the host's Executor. */
export function createExecuteTool(
  executor: Executor,
  workspaceRoot: string,
  defaultTimeoutMs = DEFAULT_EXECUTE_TIMEOUT_MS,
) {
  return defineTool({
    name: "execute",
    description:
      "Run a shell command in the workspace root (non-interactive: no stdin). Returns output (head and tail when long) and the exit code." +
      (executor.sandboxed
        ? " It runs in an OS sandbox: it can write only in the workspace and $TMPDIR, cannot read secret folders, and has no network unless a domain is allowed."
        : ""),
    schema: ExecuteSchema,
    kind: "execute",
    async run({ command, timeout, sandbox }, ctx) {
      const timeoutMs = timeout !== undefined ? timeout * 1000 : defaultTimeoutMs;
      const result = await executor.run(command, {
        cwd: workspaceRoot,
        timeoutMs,
        signal: ctx.signal,
        ...(sandbox === false ? { unsandboxed: true } : {}),
        ...(ctx.onProgress ? { onOutput: ctx.onProgress } : {}),
      });
      const notes: string[] = [];
      if (result.stillRunning) {
        notes.push(
          `Still running after ${Math.round(timeoutMs / 1000)} s; left running in the background${result.handle ? ` as ${result.handle}` : ""}. The output so far is above.${result.handle ? ` Check on it with command_output, stop it with stop_command (handle "${result.handle}").` : ""}`,
        );
      } else if (result.timedOut) {
        notes.push(
          `Timed out after ${Math.round(timeoutMs / 1000)} s; the process tree was killed. Pass a larger timeout if it needs longer.`,
        );
      }
      if (result.cancelled) notes.push("Cancelled by the person; the process tree was killed.");
      if (result.truncated)
        notes.push("Output was long: the middle is omitted. Narrow the command (grep, head, tail) to see a part.");
      if (!result.stillRunning) notes.push(`Exit code: ${result.exitCode ?? "unknown"}`);
      notes.push(...(result.notes ?? []));
      const output = result.output.trim() === "" ? "(no output)" : result.output.replace(/\s+$/, "");
      return {
        content: `${output}\n\n${notes.map((n) => `[${n}]`).join("\n")}`,
        isError: result.stillRunning ? false : result.exitCode !== 0 || result.timedOut || result.cancelled,
        details: {
          exitCode: result.exitCode,
          timedOut: result.timedOut,
          cancelled: result.cancelled,
          truncated: result.truncated,
          durationMs: result.durationMs,
          via: result.via,
          ...(result.stillRunning ? { stillRunning: true, handle: result.handle } : {}),
        },
      };
    },
  });
}

/** The file tools over the backend, plus `execute` (and `run_tests` over it, with a backend) when an executor is given. */
export function filesystemMiddleware(options: FilesystemMiddlewareOptions): Middleware {
  const tools: Tool[] = [...options.fileTools];
  if (options.executor) {
    const execute = createExecuteTool(options.executor, options.workspaceRoot, options.defaultTimeoutMs);
    tools.push(execute);
    tools.push(...createBackgroundCommandTools(options.executor));
    if (options.backend)
      tools.push(
        createRunTestsTool({
          execute: execute as unknown as Tool,
          backend: options.backend,
          ...(options.testCommand ? { testCommand: options.testCommand } : {}),
        }),
      );
  }
  const later = new Set([RUN_TESTS]);
  return {
    name: "filesystem",
    tools,
    // run_tests from the run's second step on (afterFirstTool.ts): a first "hello" does not carry it.
    wrapModelCall: (call, ctx, next) => next(offerAfterFirstTool(call, ctx, later)),
  };
}
