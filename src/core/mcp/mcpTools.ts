import { z } from "zod";
import type { CallToolResult, Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, type Tool, type ToolResult } from "../tools/tool";
import type { McpServer } from "./mcpServer";

/** Providers reject more tools than this in one request. */
export const MAX_TOOLS = 128;
const MAX_NAME = 64;

/**
 * MCP tools as agent tools: named `mcp__<server>__<tool>` (only `[A-Za-z0-9_-]`, at most 64
 * characters, unique), with the server's description and JSON Schema. Calls are asked by
 * default (Fathom cannot know what a server's tool does); a tool annotated read-only and not
 * destructive follows the read policy; one in the config's autoApprove list runs unasked.
 */
export function mcpToolName(server: string, tool: string, taken: Set<string>): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");
  let name = `mcp__${clean(server)}__${clean(tool)}`.slice(0, MAX_NAME);
  for (let i = 2; taken.has(name); i++) {
    const suffix = `_${i}`;
    name = `${name.slice(0, MAX_NAME - suffix.length)}${suffix}`;
  }
  taken.add(name);
  return name;
}

/** The tools of ready servers, at most `limit` of them in all (the rest are reported). */
export function mcpTools(servers: readonly McpServer[], limit = MAX_TOOLS): { tools: Tool[]; dropped: number } {
  const taken = new Set<string>();
  const tools: Tool[] = [];
  let dropped = 0;
  for (const server of servers) {
    for (const info of server.tools) {
      if (tools.length >= limit) {
        dropped++;
        continue;
      }
      tools.push(toTool(server, info, mcpToolName(server.name, info.name, taken)));
    }
  }
  return { tools, dropped };
}

function toTool(server: McpServer, info: McpToolInfo, name: string): Tool {
  const readOnly = info.annotations?.readOnlyHint === true && info.annotations?.destructiveHint !== true;
  const autoApproved = server.config.autoApprove.includes(info.name);
  const parameters = validParameters(info.inputSchema);
  return defineTool({
    name,
    description: `${info.description?.trim() || info.title || info.name} (MCP server "${server.name}", tool ${info.name})`,
    // The server validates its own arguments; Fathom checks only that they are an object.
    schema: z.record(z.string(), z.unknown()),
    parameters,
    kind: readOnly ? "read" : "other",
    ...(autoApproved ? { approval: "auto" as const } : readOnly ? {} : { approval: "ask" as const }),
    async run(args, ctx): Promise<ToolResult> {
      try {
        const result = await server.call(info.name, args, ctx.signal);
        return toResult(result, server.name, info.name);
      } catch (error) {
        if (ctx.signal.aborted) return { content: `Cancelled: the call to ${info.name} on "${server.name}" was stopped.`, isError: true };
        return {
          content: `The MCP server "${server.name}" failed on ${info.name}: ${(error as Error).message}. Try again later, or do without this tool.`,
          isError: true,
          details: { mcpServer: server.name },
        };
      }
    },
  });
}

/** A schema the model APIs accept: an object schema, or an empty one when the server's is unusable. */
function validParameters(schema: unknown): Record<string, unknown> {
  if (typeof schema === "object" && schema !== null && (schema as { type?: unknown }).type === "object") return schema as Record<string, unknown>;
  return { type: "object", properties: {} };
}

/** Text, images, resources and structured content as one result the model can read. */
export function toResult(result: CallToolResult, server: string, tool: string): ToolResult {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case "text":
        parts.push(item.text);
        break;
      case "image":
        parts.push(`[image ${item.mimeType}, ${Math.round((item.data.length * 3) / 4 / 1024)} KB: not shown to the model]`);
        break;
      case "audio":
        parts.push(`[audio ${item.mimeType}: not shown to the model]`);
        break;
      case "resource_link":
        parts.push(`[resource ${item.uri}${item.name ? ` (${item.name})` : ""}${item.description ? `: ${item.description}` : ""}]`);
        break;
      case "resource": {
        const r = item.resource;
        parts.push("text" in r && typeof r.text === "string" ? `[resource ${r.uri}]\n${r.text}` : `[resource ${r.uri}, binary ${r.mimeType ?? ""}]`);
        break;
      }
      default:
        parts.push(JSON.stringify(item));
    }
  }
  if (result.structuredContent && parts.length === 0) parts.push(JSON.stringify(result.structuredContent, null, 2));
  const content = parts.join("\n\n") || "(no content)";
  return { content, ...(result.isError ? { isError: true } : {}), details: { mcpServer: server, mcpTool: tool } };
}
