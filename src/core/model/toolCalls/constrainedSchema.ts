/**
 * The one schema a constrained turn's reply must match: a JSON object naming an offered tool and
 * its arguments, or the final `answer`:
 *
 *   {"anyOf": [{"type": "object", "properties": {"tool": {"const": "read_file"},
 *                                                "arguments": <read_file's parameters>}, …},
 *              …, {… "tool": {"const": "answer"}, "arguments": {"text": …}}]}
 *
 * Every string gets a `maxLength` (a model that loops inside a string is stopped by the grammar,
 * not by the token limit), objects with properties are closed (`additionalProperties: false`),
 * descriptions are dropped (a grammar does not read them), and each tool's `$defs` move to the
 * root under the tool's name so its `$ref`s still resolve.
 */
import type { ToolSpec } from "../types";

/** The pseudo-tool a constrained reply ends the task with; the loop sees a plain answer. */
export const ANSWER_TOOL = "answer";

/** Longest string per argument name; others get `default`. Sized so one reply fits CONSTRAINED_MAX_TOKENS. */
export const STRING_LIMITS: { default: number; byName: Readonly<Record<string, number>> } = {
  default: 400,
  byName: {
    content: 1_500,
    old_string: 1_000,
    new_string: 1_000,
    text: 1_000,
    command: 500,
    file_path: 240,
    path: 240,
    query: 240,
  },
};

/**
 * `max_tokens` of a constrained turn. The longest reply the schema allows (write_file: 240 + 1,500
 * characters, edit_file: 240 + 2 × 1,000) is under it even at one token a character, so a reply is
 * never cut by the limit before the grammar closes it.
 */
export const CONSTRAINED_MAX_TOKENS = 2_400;

type Json = Record<string, unknown>;

/** The union schema for `tools` (plus `answer`); only `answer` when `answerOnly`. */
export function constrainedSchema(tools: readonly ToolSpec[], opts: { answerOnly?: boolean } = {}): Json {
  const defs: Json = {};
  const branches: Json[] = [];
  if (!opts.answerOnly) {
    for (const tool of tools) {
      if (tool.name === ANSWER_TOOL) continue;
      branches.push(branch(tool.name, argumentsSchema(tool, defs)));
    }
  }
  branches.push(branch(ANSWER_TOOL, answerArguments()));
  const root: Json = branches.length === 1 ? branches[0]! : { anyOf: branches };
  return Object.keys(defs).length > 0 ? { ...root, $defs: defs } : root;
}

function branch(name: string, args: Json): Json {
  return {
    type: "object",
    properties: { tool: { const: name }, arguments: args },
    required: ["tool", "arguments"],
    additionalProperties: false,
  };
}

function answerArguments(): Json {
  return {
    type: "object",
    properties: { text: { type: "string", minLength: 1, maxLength: STRING_LIMITS.byName.text } },
    required: ["text"],
    additionalProperties: false,
  };
}

/** A tool's parameters, limited, with its `$defs` hoisted into `defs` under `<tool>__<name>`. */
function argumentsSchema(tool: ToolSpec, defs: Json): Json {
  const prefix = `${tool.name.replace(/[^A-Za-z0-9_-]/g, "_")}__`;
  const params = tool.parameters;
  let usesRoot = false;
  const rewrite = (ref: string): string => {
    if (ref === "#") {
      usesRoot = true;
      return `#/$defs/${prefix}`;
    }
    const local = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
    return local ? `#/$defs/${prefix}${local[1]}` : ref;
  };
  for (const key of ["$defs", "definitions"] as const) {
    const own = params[key];
    if (!own || typeof own !== "object") continue;
    for (const [name, def] of Object.entries(own as Json)) defs[`${prefix}${name}`] = limit(def, undefined, rewrite);
  }
  const limited = limit(params, undefined, rewrite) as Json;
  // A parameter list that is not an object schema still needs an object here (the union's shape).
  const args = isObjectSchema(limited) ? limited : { type: "object", properties: {}, additionalProperties: false };
  if (usesRoot) defs[prefix] = args;
  return args;
}

function isObjectSchema(schema: Json): boolean {
  return schema.type === "object" || "properties" in schema;
}

const DROPPED = new Set([
  "description",
  "title",
  "examples",
  "$schema",
  "$id",
  "$comment",
  "$defs",
  "definitions",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
]);
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);

/** A copy of `node` with limits on strings and closed objects; `name` is the property it describes. */
function limit(node: unknown, name: string | undefined, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => limit(n, name, rewrite));
  if (typeof node !== "object" || node === null) return node;
  const source = node as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(source)) {
    if (DROPPED.has(key)) continue;
    if (key === "$ref" && typeof value === "string") out.$ref = rewrite(value);
    else if (key === "properties" && value && typeof value === "object") {
      out.properties = Object.fromEntries(
        Object.entries(value as Json).map(([prop, schema]) => [prop, limit(schema, prop, rewrite)]),
      );
    } else if (SCHEMA_LISTS.has(key)) out[key] = limit(value, name, rewrite);
    else if (key === "items" || key === "not") out[key] = limit(value, undefined, rewrite);
    else if (key === "additionalProperties" && typeof value === "object") out[key] = limit(value, undefined, rewrite);
    else out[key] = value;
  }
  const types = Array.isArray(out.type) ? out.type : [out.type];
  const fixed = "enum" in out || "const" in out || "$ref" in out;
  if (types.includes("string") && !fixed && typeof out.maxLength !== "number") {
    out.maxLength = STRING_LIMITS.byName[name ?? ""] ?? STRING_LIMITS.default;
  }
  if ("properties" in out && !("additionalProperties" in out)) out.additionalProperties = false;
  return out;
}
