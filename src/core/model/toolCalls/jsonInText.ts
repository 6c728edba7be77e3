/**
 * JSON inside a model's text: small models wrap a call in prose ("Sure! {…} Hope this helps"),
 * fence it, or stop halfway. These find where a JSON value starts and ends without a parser for
 * the whole text.
 */

/** The index just past the JSON object or array starting at `start`, or -1 when it does not close. */
export function jsonValueEnd(text: string, start: number): number {
  const open = text[start];
  if (open !== "{" && open !== "[") return -1;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The first JSON object in `text` that parses, with where it was; undefined when there is none. */
export function firstJsonObject(
  text: string,
): { value: Record<string, unknown>; start: number; end: number } | undefined {
  for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
    const end = jsonValueEnd(text, start);
    if (end < 0) continue;
    try {
      const value: unknown = JSON.parse(text.slice(start, end));
      if (value && typeof value === "object" && !Array.isArray(value))
        return { value: value as Record<string, unknown>, start, end };
    } catch {
      // not JSON after all (braces in prose or code): look further
    }
  }
  return undefined;
}

/** `text` without a ```json (or bare ```) fence around it, trimmed. */
export function unfenced(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```[a-zA-Z_]*[ \t]*\r?\n?([\s\S]*?)\r?\n?[ \t]*```$/.exec(trimmed);
  return (fenced ? fenced[1]! : trimmed).trim();
}
