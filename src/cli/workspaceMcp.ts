import * as path from "node:path";
import { describeServer, type McpServerConfig } from "../core/mcp/config";
import type { CommandSandbox } from "../core/executor/sandbox";
import { McpHub, loadMcpConfigs, userMcpConfigPath, workspaceMcpConfigPaths } from "../core/mcp/mcpHub";

import { askYesNo, type PromptStreams } from "./terminalYesNo";

export type { PromptStreams } from "./terminalYesNo";

/**
 * Asks, at the terminal, whether to start the MCP servers a repository's own files define,
 * showing what each would run. Only a "y" starts them; anything else (or Ctrl+C) does not.
 */
export async function confirmWorkspaceMcp(
  servers: readonly McpServerConfig[],
  root: string,
  io: PromptStreams,
): Promise<boolean> {
  const lines = servers.map((s) => `  ${s.name} (${path.relative(root, s.source) || s.source}): ${describeServer(s)}`);
  io.output.write(
    `\nThis repository defines ${servers.length === 1 ? "an MCP server" : `${servers.length} MCP servers`}, written by whoever wrote it:\n${lines.join("\n")}\n` +
      "They run with your rights (in the OS sandbox when it is on). Start only servers you trust.\n",
  );
  return askYesNo(io, "Start them?");
}

/**
 * The MCP servers of this run, started (failures said on stderr), or undefined when there are
 * none. The repository's own files count only with --allow-workspace-mcp or a yes at the terminal.
 */
export async function startMcp(
  opts: { cwd: string; mcpConfigs: string[]; allowWorkspaceMcp: boolean },
  sandbox: CommandSandbox | undefined,
  prompt: PromptStreams | undefined,
  /** Servers someone else passed (an ACP editor's): started only inside the OS sandbox. */
  passed: { servers: McpServerConfig[]; from: string } = { servers: [], from: "" },
): Promise<McpHub | undefined> {
  const files = [userMcpConfigPath(), ...opts.mcpConfigs];
  const workspaceFiles = workspaceMcpConfigPaths(opts.cwd);
  // No value for ${input:id} here: such servers are reported, with what to do instead.
  const vars = { workspaceFolder: opts.cwd, env: process.env, input: () => undefined };
  let useWorkspace = opts.allowWorkspaceMcp;
  if (!useWorkspace && workspaceFiles.length > 0 && prompt) {
    const defined = loadMcpConfigs(workspaceFiles, vars, { untrusted: workspaceFiles }).servers.filter(
      (s) => !s.disabled,
    );
    if (defined.length > 0) useWorkspace = await confirmWorkspaceMcp(defined, opts.cwd, prompt);
  }
  if (useWorkspace) files.push(...workspaceFiles);
  else if (workspaceFiles.length > 0) {
    process.stderr.write(
      `fathom: not starting the MCP servers of ${workspaceFiles.join(", ")}: the repository defines them. Pass --allow-workspace-mcp to start them.\n`,
    );
  }
  // Only the person's own file may start a server outside the sandbox.
  const { servers, problems } = loadMcpConfigs(files, vars, {
    untrusted: workspaceFiles,
    mayLeaveSandbox: [userMcpConfigPath()],
  });
  for (const p of problems)
    process.stderr.write(`fathom: ${p.file}${p.line ? `:${p.line}:${p.column}` : ""}: ${p.message}\n`);
  if (passed.servers.length > 0 && !sandbox)
    process.stderr.write(
      `fathom: not starting the MCP servers ${passed.from} passed (${passed.servers.map((s) => s.name).join(", ")}): Fathom starts them only inside the OS sandbox, which is off here. Run without --no-sandbox on a machine where it runs, or add the servers to your own MCP file.\n`,
    );
  else
    for (const s of passed.servers) {
      if (servers.some((own) => own.name === s.name))
        process.stderr.write(
          `fathom: not starting the MCP server "${s.name}" ${passed.from} passed: your own MCP configuration has a server of that name.\n`,
        );
      else servers.push(s);
    }
  if (servers.length === 0) return undefined;
  const hub = new McpHub(servers, { workspaceRoot: opts.cwd, ...(sandbox ? { sandbox } : {}) });
  for (const failure of await hub.start()) process.stderr.write(`fathom: ${failure}\n`);
  const { dropped } = hub.tools();
  if (dropped > 0)
    process.stderr.write(
      `fathom: ${dropped} MCP tools left out: Fathom offers at most 1,000 MCP tools. Disable servers or tools you do not need (disabled or disabledTools in the config).\n`,
    );
  return hub;
}
