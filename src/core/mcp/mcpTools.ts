import { z } from "zod";
import type { CallToolResult, Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import type { ImagePart } from "../model/types";
import { defineTool, type Tool, type ToolResult } from "../tools/tool";
import type { McpServer } from "./mcpServer";
import { EMPTY_PARAMETERS, argumentProblem, inputSchemaProblem } from "./toolSchemas";

/** What the providers' APIs read as images; the largest they take (5 MB decoded) and how many per result. */
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const MAX_IMAGE_BASE64 = Math.floor((5 * 1024 * 1024 * 4) / 3);
const MAX_IMAGES = 4;

/** Providers reject more tools than this in one request. */
export const MAX_TOOLS = 128;
/**
 * Most MCP tools offered at all: past 96 they are loaded on demand (find_tools), and a request
 * never carries more than MAX_TOOLS, so more can be offered than one request holds.
 */
export const MAX_MCP_TOOLS = 1_000;
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
export function mcpTools(
  servers: readonly McpServer[],
  limit = MAX_MCP_TOOLS,
): { tools: Tool[]; dropped: number; origins: Map<string, McpToolOrigin> } {
  const taken = new Set<string>();
  const tools: Tool[] = [];
  const origins = new Map<string, McpToolOrigin>();
  let dropped = 0;
  for (const server of servers) {
    for (const info of server.tools) {
      if (tools.length >= limit) {
        dropped++;
        continue;
      }
      const name = mcpToolName(server.name, info.name, taken);
      tools.push(toTool(server, info, name));
      origins.set(name, { server: server.name, tool: info.name, source: server.config.source });
    }
  }
  return { tools, dropped, origins };
}

/** Which server and tool an `mcp__…` name stands for, and the config file that defines the server. */
export interface McpToolOrigin {
  server: string;
  tool: string;
  source: string;
}

function toTool(server: McpServer, info: McpToolInfo, name: string): Tool {
  const readOnly = info.annotations?.readOnlyHint === true && info.annotations?.destructiveHint !== true;
  const autoApproved = server.config.autoApprove.includes(info.name);
  // A schema that is not valid JSON Schema would make the model API refuse every request.
  const schemaProblem = server.schemaProblems.get(info.name) ?? inputSchemaProblem(info.inputSchema);
  const parameters: Record<string, unknown> = schemaProblem ? { ...EMPTY_PARAMETERS } : info.inputSchema;
  const note = schemaProblem
    ? ` Its parameters are not described (the server's schema is invalid: ${schemaProblem}); the server checks the arguments.`
    : "";
  return defineTool({
    name,
    description: `${info.description?.trim() || info.title || info.name} (MCP server "${server.name}", tool ${info.name})${note}`,
    // Arguments are checked against the server's JSON Schema before anyone is asked, with the
    // schema in the error, so a model that called a deferred tool unseen can correct itself.
    schema: z.record(z.string(), z.unknown()).superRefine((args, check) => {
      const wrong = schemaProblem ? undefined : argumentProblem(info.inputSchema, args);
      if (wrong)
        check.addIssue({
          code: "custom",
          message: `${wrong}. The parameters of ${name} (JSON Schema): ${JSON.stringify(info.inputSchema)}`,
        });
    }),
    parameters,
    kind: readOnly ? "read" : "other",
    ...(autoApproved ? { approval: "auto" as const } : readOnly ? {} : { approval: "ask" as const }),
    async run(args, ctx): Promise<ToolResult> {
      try {
        const result = await server.call(info.name, args, ctx.signal);
        return toResult(result, server.name, info.name);
      } catch (error) {
        if (ctx.signal.aborted)
          return { content: `Cancelled: the call to ${info.name} on "${server.name}" was stopped.`, isError: true };
        return {
          content: `The MCP server "${server.name}" failed on ${info.name}: ${(error as Error).message}. Try again later, or do without this tool.`,
          isError: true,
          details: { mcpServer: server.name },
        };
      }
    },
  });
}

/** Text, images, resources and structured content as one result the model can read. */
export function toResult(result: CallToolResult, server: string, tool: string): ToolResult {
  const parts: string[] = [];
  const images: ImagePart[] = [];
  for (const item of result.content ?? []) {
    switch (item.type) {
      case "text":
        parts.push(item.text);
        break;
      case "image": {
        const kb = Math.round((item.data.length * 3) / 4 / 1024);
        if (!IMAGE_TYPES.has(item.mimeType))
          parts.push(`[image ${item.mimeType}, ${kb} KB: a type models do not read]`);
        else if (item.data.length > MAX_IMAGE_BASE64)
          parts.push(`[image ${item.mimeType}, ${kb} KB: too large to send to the model]`);
        else if (images.length >= MAX_IMAGES)
          parts.push(`[image ${item.mimeType}, ${kb} KB: over ${MAX_IMAGES} images in one result, not sent]`);
        else {
          images.push({ mimeType: item.mimeType, data: item.data });
          parts.push(`[image ${images.length}: ${item.mimeType}, ${kb} KB]`);
        }
        break;
      }
      case "audio":
        parts.push(`[audio ${item.mimeType}: not shown to the model]`);
        break;
      case "resource_link":
        parts.push(
          `[resource link ${item.uri}${item.name ? ` (${item.name}${item.mimeType ? `, ${item.mimeType}` : ""})` : ""}${item.description ? `: ${item.description}` : ""}]`,
        );
        break;
      case "resource": {
        const r = item.resource;
        parts.push(
          "text" in r && typeof r.text === "string"
            ? `[resource ${r.uri}]\n${r.text}`
            : `[resource ${r.uri}, binary ${r.mimeType ?? ""}]`,
        );
        break;
      }
      default:
        parts.push(JSON.stringify(item));
    }
  }
  // Servers should repeat structured content as JSON text; when one does not, the model still gets it.
  if (result.structuredContent && !repeatsAsText(result))
    parts.push(`${parts.length ? "Structured content:\n" : ""}${JSON.stringify(result.structuredContent, null, 2)}`);
  const content = parts.join("\n\n") || "(no content)";
  return {
    content,
    ...(result.isError ? { isError: true } : {}),
    ...(images.length ? { images } : {}),
    details: { mcpServer: server, mcpTool: tool },
  };
}

/** Whether a text part of the result already holds the structured content as JSON. */
function repeatsAsText(result: CallToolResult): boolean {
  const wanted = JSON.stringify(result.structuredContent);
  return (result.content ?? []).some((item) => {
    if (item.type !== "text") return false;
    try {
      return JSON.stringify(JSON.parse(item.text)) === wanted;
    } catch {
      return false;
    }
  });
}
