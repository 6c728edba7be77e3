// A small MCP server on the official SDK for faults the npm servers do not have: many tools
// (TOOL_COUNT, default 200) and a tool that adds another at run time, which makes the SDK send
// notifications/tools/list_changed. Speaks stdio; exits when its client closes stdin. Extra
// arguments are ignored (tests tag its command line with them to find it in /proc).
// FIXTURE_SECRET set: a tool secret_digest answers its SHA-256 (proof it got a value, without showing it).
import { createHash } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const count = Number(process.env.TOOL_COUNT ?? 200);
const server = new McpServer({ name: "fixture", version: "1.0.0" });

for (let i = 0; i < count; i++) {
  const name = `tool_${String(i).padStart(3, "0")}`;
  server.registerTool(
    name,
    { description: `Returns the number ${i} times the factor given.`, inputSchema: { factor: z.number() } },
    async ({ factor }) => ({
      content: [{ type: "text", text: String(i * factor) }],
    }),
  );
}

let added = 0;
server.registerTool("add_tool", { description: "Adds a tool named added_N to this server." }, async () => {
  const name = `added_${++added}`;
  server.registerTool(name, { description: `A tool added at run time (${name}).` }, async () => ({
    content: [{ type: "text", text: `${name} answered` }],
  }));
  return { content: [{ type: "text", text: `added ${name}` }] };
});

if (process.env.FIXTURE_SECRET !== undefined) {
  server.registerTool(
    "secret_digest",
    { description: "The SHA-256 of the secret this server was given." },
    async () => ({
      content: [
        {
          type: "text",
          text: createHash("sha256")
            .update(process.env.FIXTURE_SECRET ?? "")
            .digest("hex"),
        },
      ],
    }),
  );
}

await server.connect(new StdioServerTransport());
// STUBBORN=1: a badly behaved server that outlives its closed stdin (and ignores SIGTERM), so
// only a client that really kills its servers leaves no orphan.
if (process.env.STUBBORN === "1") {
  setInterval(() => {}, 1_000);
  process.on("SIGTERM", () => {});
} else process.stdin.on("end", () => process.exit(0));
