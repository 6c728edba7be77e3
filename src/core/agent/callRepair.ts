/**
 * Repair before refusal: a call whose intent is plain is read as meant instead of sent back as an
 * error. Small models write the arguments inside prose, shorten a tool's name ("read" for
 * read_file), misspell it, write "3" for 3, call `file_path` "path", or leave out an argument that
 * has a default. Only fixes with one possible reading are made; anything else still fails
 * validation and goes back to the model with the error and the tool's schema (toolRunner.ts), so
 * a malformed call never runs, and never writes.
 */
import { firstJsonObject } from "../model/toolCalls/jsonInText";
import type { ToolSpec } from "../model/types";

export interface RepairedCall {
  name: string;
  /** The arguments, repaired; a string when they are not JSON at all. */
  args: unknown;
  /** What was changed, for the log and (for names) a note to the model. */
  fixes: string[];
}

/** The tool `name` most plausibly means among `names`: exact, any case, a unique prefix, or one unique near miss. */
export function resolveToolName(name: string, names: readonly string[]): string | undefined {
  if (names.includes(name)) return name;
  const lower = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  const exact = names.filter((n) => n.toLowerCase() === lower);
  if (exact.length === 1) return exact[0];
  if (lower.length >= 2) {
    const prefixed = names.filter((n) => n.toLowerCase().startsWith(lower) || lower.startsWith(n.toLowerCase()));
    if (prefixed.length === 1) return prefixed[0];
  }
  const scored = names.map((n) => ({ n, d: editDistance(lower, n.toLowerCase()) })).sort((a, b) => a.d - b.d);
  const best = scored[0];
  if (best && best.d <= Math.min(2, Math.floor(lower.length / 3)) && scored[1]?.d !== best.d) return best.n;
  return undefined;
}

export function repairCall(name: string, rawArgs: string, tools: ReadonlyMap<string, ToolSpec>): RepairedCall {
  const fixes: string[] = [];
  const resolved = resolveToolName(name, [...tools.keys()]) ?? name;
  if (resolved !== name) fixes.push(`tool "${name}" read as ${resolved}`);
  let args: unknown;
  if (rawArgs.trim() === "") args = {};
  else {
    try {
      args = JSON.parse(rawArgs);
    } catch {
      const found = firstJsonObject(rawArgs);
      if (!found) return { name: resolved, args: rawArgs, fixes };
      args = found.value;
      fixes.push("arguments taken out of the text around them");
    }
  }
  if (typeof args === "string" && /^\s*\{/.test(args)) {
    try {
      args = JSON.parse(args);
      fixes.push("arguments given as a JSON string");
    } catch {
      // left as it is: validation says what is wrong
    }
  }
  const spec = tools.get(resolved);
  if (spec && isRecord(args)) args = fitToSchema(args, spec.parameters, fixes, "");
  return { name: resolved, args, fixes };
}

type Schema = Record<string, unknown>;

/** Renames, coerces and fills `value` towards `schema` where there is one reading. */
function fitToSchema(
  value: Record<string, unknown>,
  schema: Schema,
  fixes: string[],
  at: string,
): Record<string, unknown> {
  const props = isRecord(schema.properties) ? (schema.properties as Record<string, Schema>) : undefined;
  if (!props) return value;
  const out: Record<string, unknown> = { ...value };
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  // A misspelled or shortened name for the one required argument that is missing.
  const missing = required.filter((p) => !(p in out));
  const unknown = Object.keys(out).filter((k) => !(k in props));
  if (missing.length === 1 && unknown.length === 1) {
    const [want] = missing as [string];
    const [got] = unknown as [string];
    if (resemble(got, want)) {
      out[want] = out[got];
      delete out[got];
      fixes.push(`argument "${at}${got}" read as ${at}${want}`);
    }
  }
  for (const [key, propSchema] of Object.entries(props)) {
    if (!(key in out)) {
      if ("default" in propSchema) out[key] = propSchema.default;
      continue;
    }
    const coerced = coerce(out[key], propSchema);
    if (coerced.changed) {
      out[key] = coerced.value;
      fixes.push(`argument ${at}${key} given as ${describeType(value[key])}, read as ${describeType(coerced.value)}`);
    }
    if (isRecord(out[key]))
      out[key] = fitToSchema(out[key] as Record<string, unknown>, propSchema, fixes, `${at}${key}.`);
  }
  return out;
}

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
  if (typeof schema.type === "string") return [schema.type];
  const alternatives = [schema.anyOf, schema.oneOf].find(Array.isArray) as Schema[] | undefined;
  return alternatives ? alternatives.flatMap((s) => (isRecord(s) ? typesOf(s) : [])) : [];
}

/** The obvious conversions only: "3" → 3, "true" → true, 3 → "3", a JSON string → the object or array it holds. */
function coerce(value: unknown, schema: Schema): { changed: boolean; value: unknown } {
  const types = typesOf(schema);
  if (types.length === 0 || types.includes(jsonType(value))) return { changed: false, value };
  if (typeof value === "string") {
    const text = value.trim();
    if ((types.includes("integer") || types.includes("number")) && /^-?\d+(\.\d+)?$/.test(text)) {
      const n = Number(text);
      if (types.includes("number") || Number.isInteger(n)) return { changed: true, value: n };
    }
    if (types.includes("boolean") && /^(true|false)$/i.test(text))
      return { changed: true, value: text.toLowerCase() === "true" };
    if ((types.includes("object") || types.includes("array")) && /^[[{]/.test(text)) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (types.includes(jsonType(parsed))) return { changed: true, value: parsed };
      } catch {
        // not JSON: left for validation
      }
    }
    return { changed: false, value };
  }
  if (types.includes("string") && (typeof value === "number" || typeof value === "boolean"))
    return { changed: true, value: String(value) };
  if (types.includes("integer") && typeof value === "number" && Number.isInteger(value))
    return { changed: false, value };
  return { changed: false, value };
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function describeType(value: unknown): string {
  const t = jsonType(value);
  return t === "integer" ? "number" : t;
}

/** Whether `got` is plainly a version of `want`: one holds the other ("path" in "file_path"), or a near miss. */
function resemble(got: string, want: string): boolean {
  const a = got.toLowerCase().replace(/[^a-z0-9]/g, "");
  const b = want.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (a.length < 3) return false;
  return a.includes(b) || b.includes(a) || editDistance(a, b) <= 2;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Levenshtein distance (names are short). */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}
