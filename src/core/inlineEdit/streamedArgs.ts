import { cleanAnswer, partialReplacement } from "./answer";
import { replaceLines, selectLines } from "./selectedLines";

/**
 * Arguments of a tool call read while they stream in (unfinished JSON), for a diff that shows
 * the change as the model writes it. A key inside another argument's string is escaped
 * (`\"answer\"`) and does not match.
 */

/** A string argument as far as it has come: `{"content": "ab\ncd` gives "ab⏎cd", not complete. */
export function streamedString(partialArgs: string, key: string): { value: string; complete: boolean } | undefined {
  const m = new RegExp(`"${key}"\\s*:\\s*"`).exec(partialArgs);
  if (!m) return undefined;
  let raw = "";
  let complete = false;
  for (let i = m.index + m[0].length; i < partialArgs.length; i++) {
    const c = partialArgs[i]!;
    if (c === '"') {
      complete = true;
      break;
    }
    if (c === "\\") {
      // An escape cut off by the stream waits for its next piece.
      const length = partialArgs[i + 1] === "u" ? 6 : 2;
      if (i + length > partialArgs.length) break;
      raw += partialArgs.slice(i, i + length);
      i += length - 1;
      continue;
    }
    raw += c;
  }
  try {
    const value: unknown = JSON.parse(`"${raw}"`);
    return typeof value === "string" ? { value, complete } : undefined;
  } catch {
    return undefined;
  }
}

/** A whole-number argument once it has come in full. */
export function streamedNumber(partialArgs: string, key: string): number | undefined {
  const m = new RegExp(`"${key}"\\s*:\\s*(\\d+)\\s*[,}]`).exec(partialArgs);
  return m ? Number(m[1]) : undefined;
}

/**
 * The file as an `edit_selection` call streaming in makes it so far (`before` is the file now),
 * or undefined while there is nothing new to show (see partialReplacement).
 */
export function inlineEditPreview(partialArgs: string, before: string): string | undefined {
  const start = streamedNumber(partialArgs, "start_line");
  const end = streamedNumber(partialArgs, "end_line");
  const answer = streamedString(partialArgs, "answer");
  if (start === undefined || end === undefined || !answer) return undefined;
  const sel = selectLines(before, start, end);
  if ("error" in sel) return undefined;
  const ctx = { sel, path: streamedString(partialArgs, "file_path")?.value ?? "" };
  const cleaned = answer.complete ? cleanAnswer(answer.value, ctx) : undefined;
  const replacement = cleaned
    ? "replacement" in cleaned
      ? cleaned.replacement
      : undefined
    : partialReplacement(answer.value, ctx);
  return replacement === undefined ? undefined : replaceLines(before, start, end, replacement);
}
