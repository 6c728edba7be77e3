/* eslint-disable no-control-regex -- matching terminal control characters is this file's purpose */
/**
 * Turns a terminal's raw byte stream into plain text for the model and the chat card: removes
 * OSC sequences (VS Code's shell-integration `633` marks, titles, hyperlinks), CSI sequences
 * (colours, cursor moves) and other escapes, and resolves carriage-return overwrites
 * (progress bars) so only what the line finally showed remains. Streaming-safe: an escape
 * sequence split across chunks is held back until it is complete.
 */
export class TerminalTextCleaner {
  private pending = "";

  push(chunk: string): string {
    const text = this.pending + chunk;
    const cut = incompleteEscapeStart(text);
    this.pending = cut === -1 ? "" : text.slice(cut);
    return clean(cut === -1 ? text : text.slice(0, cut));
  }

  /** Whatever is held back, cleaned (an unterminated sequence at the very end is dropped). */
  end(): string {
    const rest = this.pending;
    this.pending = "";
    return clean(rest.replace(/\x1b[\s\S]*$/, ""));
  }
}

/** One-shot form of {@link TerminalTextCleaner}. */
export function cleanTerminalText(raw: string): string {
  const cleaner = new TerminalTextCleaner();
  return cleaner.push(raw) + cleaner.end();
}

// OSC: ESC ] ... (BEL | ESC \). CSI: ESC [ params intermediates final. Others: ESC + one char
// (charset selections take one more). C1 CSI (\x9b) too.
const OSC = /\x1b\][\s\S]*?(?:\x07|\x1b\\)/g;
const CSI = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]/g;
const CHARSET = /\x1b[()*+][0-9A-Za-z]/g;
const OTHER_ESC = /\x1b[@-Z\\-_=>78]/g;
// Control characters other than tab, newline and carriage return.
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

function clean(text: string): string {
  if (text.length === 0) return text;
  const stripped = text
    .replace(OSC, "")
    .replace(CSI, "")
    .replace(CHARSET, "")
    .replace(OTHER_ESC, "")
    .replace(CONTROL, "");
  return resolveCarriageReturns(stripped);
}

function resolveCarriageReturns(text: string): string {
  if (!text.includes("\r")) return text;
  return text
    .replace(/\r+\n/g, "\n")
    .split("\n")
    .map((line) => {
      const parts = line.split("\r");
      // A bare trailing \r (the next chunk overwrites) keeps what was shown.
      for (let i = parts.length - 1; i >= 0; i--) if (parts[i] !== "") return parts[i];
      return "";
    })
    .join("\n");
}

/** Index where an escape sequence starts but does not end within `text`, or -1. */
function incompleteEscapeStart(text: string): number {
  const at = text.lastIndexOf("\x1b");
  if (at === -1) return -1;
  const tail = text.slice(at);
  if (tail.length === 1) return at;
  const kind = tail[1];
  if (kind === "]") return /\x07|\x1b\\/.test(tail.slice(2)) ? -1 : at;
  if (kind === "[") return /^\x1b\[[0-?]*[ -/]*[@-~]/.test(tail) ? -1 : at;
  if (kind === "(" || kind === ")" || kind === "*" || kind === "+") return tail.length >= 3 ? -1 : at;
  // An OSC may contain ESC only as its terminator; look further back for an open OSC.
  const osc = text.lastIndexOf("\x1b]", at - 1);
  if (osc !== -1 && !/\x07|\x1b\\/.test(text.slice(osc + 2, at + 2))) return osc;
  return -1;
}
