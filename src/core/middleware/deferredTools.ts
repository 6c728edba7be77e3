import { z } from "zod";
import { toolSpecOf } from "../tools/jsonSchema";
import { MAX_TOOLS } from "../mcp/mcpTools";
import { defineTool, type Tool } from "../tools/tool";
import type { Middleware, RunContext } from "./types";

/**
 * Keeps many MCP tools from bloating every request. When their schemas together pass
 * `thresholdChars` (or the run uses the small-model profile, whatever their size), the model
 * sees none of them at first, only `find_tools`, which lists the
 * ones matching a query (or a server) and loads them for the following requests. A call to a
 * deferred tool by its full name still runs (its arguments are checked as always) and loads it.
 *
 * The default threshold (4,000 characters) keeps the first request of a plain "hello" under
 * 12,000 characters: the built-in tools and prompt take about 6,400, and `find_tools` and the
 * servers' summary take under 1,000.
 */
export const DEFAULT_DEFER_THRESHOLD_CHARS = 4_000;
const MAX_LOADED_PER_CALL = 20;
/** More MCP tools than this are always deferred, leaving room under the 128 for Fathom's own tools. */
const MAX_UP_FRONT_TOOLS = 96;

export function deferredToolsMiddleware(options: { tools: readonly Tool[]; thresholdChars?: number }): Middleware {
  if (options.tools.length === 0) return { name: "deferredTools" };
  const size = options.tools.reduce((n, t) => n + JSON.stringify(toolSpecOf(t)).length, 0);
  const tooMany = options.tools.length > MAX_UP_FRONT_TOOLS;
  const overThreshold = tooMany || size > (options.thresholdChars ?? DEFAULT_DEFER_THRESHOLD_CHARS);
  /** Few MCP tools go up front, unless the run uses the small-model profile (MCP tools only through find_tools). */
  const defers = (ctx: RunContext) => overThreshold || ctx.profile === "small";
  const deferred = new Map(options.tools.map((t) => [t.name, t]));
  /** Loaded tools, least recently used first: past 128 tools in a request, the oldest are unloaded. */
  const loaded = new Set<string>();
  const load = (name: string) => {
    loaded.delete(name);
    loaded.add(name);
  };
  const servers = new Map<string, number>();
  for (const name of deferred.keys()) {
    const server = /^mcp__(.+?)__/.exec(name)?.[1] ?? "other";
    servers.set(server, (servers.get(server) ?? 0) + 1);
  }

  const findTools = defineTool({
    name: "find_tools",
    description:
      "Find and load tools from MCP servers (not loaded up front to keep requests small). Give words describing what you need, or a server name; matching tools are listed and can be called from the next step on.",
    schema: z.object({
      query: z.string().optional().describe("Words to match in tool names and descriptions"),
      server: z.string().optional().describe("Load the tools of this server"),
    }),
    kind: "read",
    async run({ query, server }) {
      const words = (query ?? "").toLowerCase().split(/\W+/).filter(Boolean);
      const matches = [...deferred.values()].filter((t) => {
        if (server && !t.name.startsWith(`mcp__${server.replace(/[^A-Za-z0-9_-]/g, "_")}__`)) return false;
        const text = `${t.name} ${t.description}`.toLowerCase();
        return words.length === 0 || words.some((w) => text.includes(w));
      });
      if (matches.length === 0) {
        return {
          content: `No MCP tool matches. Servers: ${[...servers].map(([s, n]) => `${s} (${n} tools)`).join(", ")}. Try other words or a server name.`,
        };
      }
      const picked = matches.slice(0, MAX_LOADED_PER_CALL);
      for (const t of picked) load(t.name);
      const more =
        matches.length > picked.length ? `\n(${matches.length - picked.length} more match; narrow the query.)` : "";
      return {
        content: `Loaded ${picked.length} tools; call them by name:\n${picked.map((t) => `- ${t.name}: ${t.description.split("\n")[0]}`).join("\n")}${more}`,
      };
    },
  });

  return {
    name: "deferredTools",
    tools: [findTools],
    systemPrompt: (ctx) =>
      defers(ctx)
        ? `# More tools\nMCP servers offer more tools, loaded on demand with find_tools: ${[...servers].map(([s, n]) => `${s} (${n})`).join(", ")}.`
        : undefined,
    async wrapModelCall(call, ctx, next) {
      if (!defers(ctx)) return next({ ...call, tools: call.tools.filter((t) => t.name !== findTools.name) });
      const own = call.tools.filter((t) => !deferred.has(t.name)).length;
      for (const name of loaded) {
        if (own + loaded.size <= MAX_TOOLS) break;
        loaded.delete(name);
      }
      return next({ ...call, tools: call.tools.filter((t) => !deferred.has(t.name) || loaded.has(t.name)) });
    },
    async wrapToolCall(call, _ctx, next) {
      if (deferred.has(call.name)) load(call.name);
      return next(call);
    },
  };
}
