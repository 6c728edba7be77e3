/**
 * What the terminal shows of text a person approves: control characters (an escape sequence can
 * rewrite what the terminal shows), bidirectional overrides and zero-width characters become
 * visible `<U+202E>` marks, and a line break becomes `↵` plus a real break, so a command on two
 * lines looks like two lines. The same characters the chat's approval cards mark.
 */
// Matching control and invisible characters is the point here.
const INVISIBLE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB]|\uDB40[\uDC00-\uDC7F]|\n/gu;

export function visibleText(text: string, indent = ""): string {
  return text.replace(INVISIBLE, (ch) =>
    ch === "\n" ? `↵\n${indent}` : `<U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}>`,
  );
}
