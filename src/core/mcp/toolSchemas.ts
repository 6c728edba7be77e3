import type { Ajv, ValidateFunction } from "ajv";
import type { Tool as McpToolInfo } from "@modelcontextprotocol/sdk/types.js";
import { mcpLib } from "../vendor/libraries";

/**
 * What MCP servers say about their tools, checked one tool at a time. The SDK's own
 * `listTools` rejects the whole list when one tool is malformed, so a server with one bad
 * schema would lose every tool; and a schema that is not valid JSON Schema makes the model
 * APIs reject every request that carries it. Here a bad tool keeps its name and description
 * with an empty parameter list (the server still checks the arguments), and the reason is kept
 * for the model and the log.
 */
export const EMPTY_PARAMETERS = { type: "object", properties: {} } as const;

// Draft-07 rules with unknown keywords allowed: lenient enough for every real server's schemas
// (2020-12 ones included), strict enough to catch what the model APIs refuse.
// Made when first needed: activation pays nothing for it.
let instance: Ajv | undefined;
const validator = (): Ajv =>
  (instance ??= new (mcpLib().Ajv)({ strict: false, allErrors: true, validateFormats: false, logger: false }));

export interface ListedTools {
  tools: McpToolInfo[];
  /** Tool name → why its input schema was replaced by an empty one. */
  schemaProblems: Map<string, string>;
  /** Entries that were not tools at all (no name), described for the log. */
  skipped: string[];
}

/** Checks each entry of a `tools/list` answer on its own. */
export function readToolList(entries: readonly unknown[]): ListedTools {
  const out: ListedTools = { tools: [], schemaProblems: new Map(), skipped: [] };
  for (const entry of entries) {
    const parsed = mcpLib().mcpTypes.ToolSchema.safeParse(entry);
    if (parsed.success) {
      const problem = inputSchemaProblem(parsed.data.inputSchema);
      if (problem) out.schemaProblems.set(parsed.data.name, problem);
      out.tools.push(parsed.data);
      continue;
    }
    const raw = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    if (typeof raw.name !== "string" || raw.name === "") {
      out.skipped.push(`an entry without a name (${JSON.stringify(entry)?.slice(0, 120)})`);
      continue;
    }
    const annotations = mcpLib().mcpTypes.ToolSchema.shape.annotations.safeParse(raw.annotations);
    out.tools.push({
      name: raw.name,
      ...(typeof raw.description === "string" ? { description: raw.description } : {}),
      ...(typeof raw.title === "string" ? { title: raw.title } : {}),
      inputSchema: { ...EMPTY_PARAMETERS },
      ...(annotations.success && annotations.data ? { annotations: annotations.data } : {}),
    });
    out.schemaProblems.set(
      raw.name,
      parsed.error.issues
        .map((i) => `${i.path.join(".") || "tool"}: ${i.message}`)
        .join("; ")
        .slice(0, 300),
    );
  }
  return out;
}

/** Why `schema` is not a usable object schema, or undefined when it is. */
export function inputSchemaProblem(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return "it is not an object";
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  if (rest.type !== "object") return `its type is ${JSON.stringify(rest.type)}, not "object"`;
  const ajv = validator();
  if (!ajv.validateSchema(rest)) return ajv.errorsText(ajv.errors, { dataVar: "schema" }).slice(0, 300);
  return undefined;
}

const validators = new WeakMap<object, ValidateFunction | null>();

/**
 * Checks a call's arguments against the tool's input schema; returns what is wrong, or
 * undefined. A schema the validator cannot compile (a remote `$ref`) checks nothing: the
 * server validates its own arguments anyway.
 */
export function argumentProblem(schema: object, args: Record<string, unknown>): string | undefined {
  const ajv = validator();
  let validate = validators.get(schema);
  if (validate === undefined) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as Record<string, unknown>;
    try {
      validate = ajv.compile(rest);
    } catch {
      validate = null;
    }
    validators.set(schema, validate);
  }
  if (!validate || validate(args)) return undefined;
  return ajv.errorsText(validate.errors, { dataVar: "arguments" });
}
