// An MCP server on the official SDK's low-level Server (which sends what its handlers return,
// unchecked) for what well-made servers never do: tools whose schemas are invalid, an entry
// without a name; and for what the client must handle in results: resource links, structured
// content, a very large result, and a call that waits until the client cancels it (the
// notifications/cancelled it receives is written to stderr). Speaks stdio.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "odd", version: "1.0.0" }, { capabilities: { tools: {} } });

const tools = [
  {
    name: "good",
    description: "Doubles n.",
    inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
  },
  { name: "string_schema", description: "Its schema is a string schema.", inputSchema: { type: "string" } },
  { name: "no_schema", description: "It has no schema at all." },
  {
    name: "bad_type",
    description: "Its schema names a type that does not exist.",
    inputSchema: { type: "object", properties: { x: { type: "strng" } } },
  },
  { description: "An entry without a name." },
  { name: "wait", description: "Waits until cancelled.", inputSchema: { type: "object", properties: {} } },
  {
    name: "links",
    description: "Answers with a resource link and structured content.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "structured",
    description: "Answers with structured content only.",
    inputSchema: { type: "object", properties: {} },
  },
  { name: "big", description: "Answers with 200,000 characters.", inputSchema: { type: "object", properties: {} } },
];

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
  const { name, arguments: args = {} } = request.params;
  switch (name) {
    case "good":
      return { content: [{ type: "text", text: String(Number(args.n) * 2) }] };
    case "string_schema":
    case "no_schema":
    case "bad_type":
      return { content: [{ type: "text", text: `${name} got ${JSON.stringify(args)}` }] };
    case "wait":
      console.error(`waiting on request ${extra.requestId}`);
      return new Promise((resolve) => {
        extra.signal.addEventListener("abort", () => {
          console.error(
            `cancelled request ${extra.requestId}: ${String(extra.signal.reason?.message ?? extra.signal.reason)}`,
          );
          resolve({ content: [{ type: "text", text: "cancelled" }] });
        });
      });
    case "links":
      return {
        content: [
          { type: "text", text: "Two files match." },
          {
            type: "resource_link",
            uri: "file:///srv/report.csv",
            name: "report.csv",
            description: "The monthly report",
            mimeType: "text/csv",
          },
        ],
        structuredContent: { matches: 2, files: ["report.csv", "summary.md"] },
      };
    case "structured":
      return { content: [], structuredContent: { temperature: 21.5, unit: "C" } };
    case "big":
      return {
        content: [
          { type: "text", text: Array.from({ length: 4_000 }, (_, i) => `line ${i} ${"x".repeat(40)}`).join("\n") },
        ],
      };
    default:
      return { content: [{ type: "text", text: `no tool ${name}` }], isError: true };
  }
});

await server.connect(new StdioServerTransport());
process.stdin.on("end", () => process.exit(0));
