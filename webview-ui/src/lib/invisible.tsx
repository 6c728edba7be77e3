import type { ReactNode } from "react";

/**
 * Characters that change how text looks without showing: C0/C1 controls, bidirectional
 * overrides and isolates (a "Trojan Source" command can read differently from what runs),
 * zero-width characters, and other format characters. Approval cards show each as a visible
 * badge, and a line break as a visible mark plus a real break, so what the person approves
 * looks like what will run.
 */
// Matching control and combining characters is the point here.
const INVISIBLE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB]|\uDB40[\uDC00-\uDC7F]|\n|\t/gu;

const NAMES: Record<string, string> = {
  "\u200B": "zero width space",
  "\u200C": "zero width non-joiner",
  "\u200D": "zero width joiner",
  "\u200E": "left-to-right mark",
  "\u200F": "right-to-left mark",
  "\u202A": "left-to-right embedding",
  "\u202B": "right-to-left embedding",
  "\u202C": "pop directional formatting",
  "\u202D": "left-to-right override",
  "\u202E": "right-to-left override",
  "\u2066": "left-to-right isolate",
  "\u2067": "right-to-left isolate",
  "\u2068": "first strong isolate",
  "\u2069": "pop directional isolate",
  "\u2060": "word joiner",
  "\uFEFF": "zero width no-break space",
  "\u00AD": "soft hyphen",
  "\u001B": "escape",
  "\r": "carriage return",
};

export function codePoint(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Whether the text holds anything `revealInvisible` would mark (line breaks and tabs aside). */
export function hasInvisible(text: string): boolean {
  return [...text.matchAll(INVISIBLE)].some((m) => m[0] !== "\n" && m[0] !== "\t");
}

/** The text with every invisible character shown as a labelled badge and line breaks made visible. */
export function revealInvisible(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    const index = match.index ?? 0;
    if (index > last) out.push(text.slice(last, index));
    const ch = match[0];
    if (ch === "\n") {
      out.push(
        <span key={index} className="invisible-char newline" title="line break: what follows runs as another line">
          ↵
        </span>,
        <br key={`${index}-br`} />,
      );
    } else if (ch === "\t") {
      out.push(
        <span key={index} className="invisible-char tab" title="tab">
          ⇥
        </span>,
      );
    } else {
      const name = NAMES[ch] ?? "invisible character";
      out.push(
        <span
          key={index}
          className="invisible-char"
          title={`${codePoint(ch)} ${name}`}
          aria-label={`${codePoint(ch)} ${name}`}
        >
          {codePoint(ch)}
        </span>,
      );
    }
    last = index + ch.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
