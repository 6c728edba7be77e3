import type { ReviewTarget } from "../../core";

export const REVIEW_USAGE =
  "Use /review (the uncommitted changes), /review staged (the staged changes), /review BRANCH (what HEAD adds since BRANCH, as --base does), or /review --pr N.";

/**
 * `/review`'s argument in the CLI's words (`fathom review [--base REF | --staged | --pr N]`),
 * with the flags' dashes optional: nothing is the uncommitted changes, `staged` the staged ones,
 * one other word a base ref (`--base staged` for a branch named so).
 */
export function reviewTargetOf(args: string): ReviewTarget | { error: string } {
  const words = args.trim().split(/\s+/).filter(Boolean);
  const [first, second, ...rest] = words;
  if (first === undefined) return { kind: "uncommitted" };
  if (rest.length > 0) return { error: `/review takes one target, not "${args.trim()}". ${REVIEW_USAGE}` };
  const flag = first.replace(/^--?/, "");
  if (flag === "staged" && second === undefined) return { kind: "staged" };
  if (flag === "base" && first.startsWith("-") && second !== undefined) return { kind: "base", ref: second };
  if (flag === "pr" && second !== undefined) {
    const number = Number(second.replace(/^#/, ""));
    return Number.isInteger(number) && number > 0
      ? { kind: "pr", number }
      : { error: `--pr takes a pull request's number, not "${second}". ${REVIEW_USAGE}` };
  }
  if (second === undefined && !first.startsWith("-")) return { kind: "base", ref: first };
  return { error: `/review does not know "${args.trim()}". ${REVIEW_USAGE}` };
}

/** The target in words, for the task's first message and title. */
export function reviewTargetLabel(target: ReviewTarget): string {
  switch (target.kind) {
    case "uncommitted":
      return "the uncommitted changes";
    case "staged":
      return "the staged changes";
    case "base":
      return `HEAD against ${target.ref}`;
    case "pr":
      return `pull request #${target.number}`;
  }
}
