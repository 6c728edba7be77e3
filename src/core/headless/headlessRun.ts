/**
 * One task run with no editor around it: `fathom run`, each trial of `fathom eval` and the
 * GitHub Action run an agent this way (and an ACP agent will). What differs between them comes
 * in as options: the model (live, recorded or replayed: its `fetch`), the approval policy and
 * gate, the hooks, the workspace root (a task's worktree is the caller's choice), the MCP
 * servers and where the events go. What is the same is here, in this order: the commands'
 * executor (inside the OS sandbox when there is one), the working directory, the MCP servers,
 * the agent (with language servers for code intelligence, when asked for), its events drained
 * one at a time, and at the end, however it ends, the language servers and the MCP servers
 * stopped, the executor and (unless shared) the sandbox disposed, the directory restored.
 */
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createAgent, type Agent, type AgentOptions, type RunOptions } from "../agent/createAgent";
import { ChildProcessExecutor } from "../executor/childProcessExecutor";
import { CommandSandbox, sandboxUnavailable } from "../executor/sandbox";
import { SandboxedExecutor } from "../executor/sandboxedExecutor";
import type { Executor } from "../executor/types";
import type { McpHub } from "../mcp/mcpHub";
import type { HeadlessCodeIntel } from "../codeIntel/lsp/headlessCodeIntel";
import type { AgentEvent, DoneEvent } from "../run/events";

/** The agent's options but the executor, which the run makes (and the MCP tools, which it adds). */
export type HeadlessAgentOptions = Omit<AgentOptions, "executor">;

export interface HeadlessRunOptions {
  /**
   * The agent's options. A function is called in the run's working directory once the MCP
   * servers are up, for options that ask the person first (the CLI's hooks, asked after the
   * servers, as before).
   */
  agent: HeadlessAgentOptions | (() => Promise<HeadlessAgentOptions>);
  /** The task, as the person wrote it. */
  input: string;
  /** Resume state, mode, steering, attachments: as `Agent.run` takes them. */
  run?: Omit<RunOptions, "signal">;
  /** Cancels the run: it ends with a `done` event whose reason is `cancelled`. */
  signal?: AbortSignal;
  /** Every event, in order; a returned promise is awaited before the next event is taken. */
  onEvent?: (event: AgentEvent) => void | Promise<void>;
  /** Called once the agent is built, before it runs (the CLI says the team files and the model's fit here). */
  onReady?: (agent: Agent) => void | Promise<void>;
  /**
   * The OS sandbox commands (and MCP servers) run in. `null`: one was wanted but cannot run
   * here (say so in the agent's `commands.alwaysAsk`); undefined: none wanted.
   */
  sandbox?: CommandSandbox | null;
  /** The sandbox is shared (an eval's trials) and its owner disposes it; by default the run does. */
  keepSandbox?: boolean;
  /** Environment of the commands' processes (default: this process's). */
  commandEnv?: Record<string, string>;
  /**
   * Run from an empty folder of its own (default: while sandboxed). The sandbox library
   * write-protects shell and git files it finds in the process's working directory by putting
   * empty stand-ins there (.bashrc, .gitconfig, .vscode …) while commands run; from an empty
   * folder none appear in the workspace (which Fathom protects by itself). The process's
   * directory is process-wide: runs in parallel (an eval's trials) pass false.
   */
  neutralWorkingDirectory?: boolean;
  /**
   * Code intelligence from language servers: the caller's starter (`headlessCodeIntelligence`
   * in ../codeIntel/lsp/, passed in so a host that never uses it does not bundle it). Where the
   * workspace calls for a server that is installed, the tools are offered and it starts at their
   * first use, in the sandbox when there is one, and stops with the run. Undefined: none (`fathom eval`).
   */
  codeIntel?: HeadlessCodeIntel;
  /** Starts the run's MCP servers, in the run's working directory (sandboxed servers are commands too); their tools are offered and they are stopped at the end. */
  startMcp?: () => Promise<McpHub | undefined>;
}

/** The executor a headless run gives its commands: a child process, inside the sandbox when there is one. */
export function commandExecutor(sandbox: CommandSandbox | null | undefined, env?: Record<string, string>): Executor {
  const inner = new ChildProcessExecutor(env ? { env } : {});
  return sandbox ? new SandboxedExecutor(inner, sandbox) : inner;
}

/** The OS sandbox, allowing `allowedDomains`, or null when it cannot run here (`unavailable` is told why). */
export function openSandbox(allowedDomains: string[], unavailable: (problem: string) => void): CommandSandbox | null {
  const problem = sandboxUnavailable();
  if (problem) {
    unavailable(problem);
    return null;
  }
  return new CommandSandbox({ allowedDomains });
}

/**
 * Runs one task to its end and returns its `done` event (undefined if the agent stopped without
 * one). A failure outside the agent's loop (building the agent, an `onEvent` that throws) is
 * thrown, after the same clean-up.
 */
export async function runHeadless(o: HeadlessRunOptions): Promise<DoneEvent | undefined> {
  const sandbox = o.sandbox ?? undefined;
  const executor = commandExecutor(sandbox, o.commandEnv);
  const previousCwd = process.cwd();
  const neutralCwd =
    (o.neutralWorkingDirectory ?? sandbox !== undefined)
      ? mkdtempSync(path.join(os.tmpdir(), "fathom-cwd-"))
      : undefined;
  let mcp: McpHub | undefined;
  let intel: { stop(): Promise<void> } | undefined;
  try {
    if (neutralCwd) process.chdir(neutralCwd);
    mcp = await o.startMcp?.();
    let options = typeof o.agent === "function" ? await o.agent() : o.agent;
    const code =
      o.codeIntel && options.backend && !options.codeIntelligence
        ? o.codeIntel({
            root: options.workspaceRoot,
            backend: options.backend,
            sandbox,
            ...(options.secretFiles ? { secretFiles: options.secretFiles } : {}),
          })
        : undefined;
    if (code) {
      intel = code.intel;
      options = { ...options, backend: code.backend, codeIntelligence: code.intel };
    }
    const agent = createAgent({
      ...options,
      executor,
      ...(mcp
        ? {
            tools: [...(options.tools ?? []), ...mcp.tools().tools],
            readMcpResource: (server: string, uri: string, signal?: AbortSignal) =>
              mcp!.readResource(server, uri, signal),
          }
        : {}),
    });
    await o.onReady?.(agent);
    let done: DoneEvent | undefined;
    for await (const event of agent.run(o.input, { ...o.run, ...(o.signal ? { signal: o.signal } : {}) })) {
      if (event.type === "done") done = event;
      await o.onEvent?.(event);
    }
    return done;
  } finally {
    await intel?.stop();
    await mcp?.stop();
    if (executor instanceof SandboxedExecutor) executor.dispose();
    if (sandbox && !o.keepSandbox) await sandbox.dispose();
    if (neutralCwd) {
      process.chdir(previousCwd);
      rmSync(neutralCwd, { recursive: true, force: true });
    }
  }
}
