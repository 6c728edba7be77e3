import { z } from "zod";
import type { Tool } from "./tool";
import type { ToolSpec } from "../model/types";

const SAFE_INT_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/**
 * The JSON Schema the model sees for a zod schema: input shape (defaults make fields optional),
 * without `$schema` and without the safe-integer bounds zod adds to `.int()`, to keep it short.
 */
export function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return compact(json) as Record<string, unknown>;
}

function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === "maximum" || key === "minimum") && typeof value === "number" && SAFE_INT_BOUNDS.has(value)) continue;
    out[key] = compact(value);
  }
  return out;
}

const specCache = new WeakMap<Tool, ToolSpec>();

/** The tool as the model sees it; computed once per tool object. */
export function toolSpecOf(tool: Tool): ToolSpec {
  let spec = specCache.get(tool);
  if (!spec) {
    spec = { name: tool.name, description: tool.description, parameters: tool.parameters ?? toJsonSchema(tool.schema) };
    specCache.set(tool, spec);
  }
  return spec;
}
