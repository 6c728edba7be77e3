import { minimatch } from "minimatch";

/**
 * Allow/deny patterns for `execute`. Patterns are globs over the whole command line
 * (`npm test*`, `git push*`, `*rm -rf*`). Deny wins over allow; a denied command never runs.
 */
export interface CommandPatterns {
  allow?: readonly string[];
  deny?: readonly string[];
}

export type CommandVerdict =
  | { verdict: "deny"; pattern: string }
  | { verdict: "allow"; pattern: string }
  | { verdict: "ask" };

const MATCH_OPTIONS = { dot: true, nocomment: true, nonegate: true, noglobstar: false } as const;

function matches(command: string, pattern: string): boolean {
  // `*` must cross `/` in a command line, so match with `/` treated as plain text.
  const escapedCommand = command.replaceAll("/", "\u2215");
  const escapedPattern = pattern.trim().replaceAll("/", "\u2215");
  return minimatch(escapedCommand, escapedPattern, MATCH_OPTIONS);
}

/**
 * Checks the whole command and each part of a compound command (`a && b`, `a; b`, `a | b`),
 * so `ls && rm -rf /` is caught by a deny pattern `rm -rf*`. Allow needs every part allowed.
 */
export function checkCommand(command: string, patterns: CommandPatterns): CommandVerdict {
  const whole = command.trim();
  const parts = splitCommand(whole);
  const candidates = [whole, ...parts];
  for (const pattern of patterns.deny ?? []) {
    if (candidates.some((c) => matches(c, pattern))) return { verdict: "deny", pattern };
  }
  const allow = patterns.allow ?? [];
  if (allow.length > 0) {
    const wholeAllowed = allow.find((p) => matches(whole, p));
    if (wholeAllowed && parts.length <= 1) return { verdict: "allow", pattern: wholeAllowed };
    if (parts.length > 1) {
      const each = parts.map((part) => allow.find((p) => matches(part, p)));
      if (each.every((p) => p !== undefined)) return { verdict: "allow", pattern: each.join(", ") };
    }
  }
  return { verdict: "ask" };
}

/** Splits on `&&`, `||`, `;`, `|` and newlines outside quotes. Good enough for policy checks. */
export function splitCommand(command: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote) {
      current += ch;
      if (ch === "\\" && quote === '"' && i + 1 < command.length) current += command[++i];
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"' || ch === "`") {
      quote = ch;
      current += ch;
      continue;
    }
    const two = command.slice(i, i + 2);
    if (two === "&&" || two === "||") {
      parts.push(current);
      current = "";
      i++;
      continue;
    }
    const isRedirect = ch === "&" && (command[i - 1] === ">" || command[i - 1] === "<" || command[i + 1] === ">");
    if (ch === ";" || ch === "|" || ch === "\n" || (ch === "&" && !isRedirect)) {
      parts.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}
