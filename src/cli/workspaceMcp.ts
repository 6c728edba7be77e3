import { createInterface } from "node:readline/promises";
import * as path from "node:path";
import { describeServer, type McpServerConfig } from "../core/mcp/config";

export interface PromptStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream;
  /** Ctrl+C while the question is open (readline swallows the signal). */
  onInterrupt: () => void;
}

/**
 * Asks, at the terminal, whether to start the MCP servers a repository's own files define,
 * showing what each would run. Only a "y" starts them; anything else (or Ctrl+C) does not.
 */
export async function confirmWorkspaceMcp(servers: readonly McpServerConfig[], root: string, io: PromptStreams): Promise<boolean> {
  const lines = servers.map((s) => `  ${s.name} (${path.relative(root, s.source) || s.source}): ${describeServer(s)}`);
  io.output.write(
    `\nThis repository defines ${servers.length === 1 ? "an MCP server" : `${servers.length} MCP servers`}, written by whoever wrote it:\n${lines.join("\n")}\n` +
      "They run with your rights (in the OS sandbox when it is on). Start only servers you trust.\n",
  );
  const rl = createInterface({ input: io.input, output: io.output, terminal: io.input.isTTY === true });
  const interrupted = new AbortController();
  rl.on("SIGINT", () => {
    interrupted.abort();
    io.onInterrupt();
  });
  try {
    const reply = (await rl.question("Start them? [y]es / [N]o: ", { signal: interrupted.signal })).trim().toLowerCase();
    return reply === "y" || reply === "yes";
  } catch {
    return false;
  } finally {
    rl.close();
  }
}
