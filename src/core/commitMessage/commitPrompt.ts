/**
 * The request for a commit message: the rules of a good one, the repository's own recent
 * subjects as the style to follow, and the change (already within its budget).
 */
import type { BudgetedDiff } from "./diffBudget";

/** How many recent subjects are given as examples of the repository's style. */
export const STYLE_EXAMPLES = 10;

/** Which changes the message describes: the staged ones, or all of them when nothing is staged. */
export type ChangeScope = "staged" | "all";

export interface CommitPromptInput {
  diff: BudgetedDiff;
  scope: ChangeScope;
  /** The repository's latest commit subjects, newest first (at most STYLE_EXAMPLES are used). */
  subjects: readonly string[];
}

const CONVENTIONAL = /^[a-z]+(\([^)]*\))?!?: \S/;

/** Whether the examples follow Conventional Commits (`type(scope): subject`): most of them do. */
export function usesConventionalCommits(subjects: readonly string[]): boolean {
  const examples = subjects.slice(0, STYLE_EXAMPLES);
  return examples.length >= 2 && examples.filter((s) => CONVENTIONAL.test(s)).length * 2 > examples.length;
}

/** A commit message's first line. */
export function subjectOf(message: string): string {
  return message.split("\n", 1)[0]!.trim();
}

export function commitMessagePrompt(input: CommitPromptInput): { system: string; user: string } {
  const examples = input.subjects
    .map(subjectOf)
    .filter((s) => s !== "")
    .slice(0, STYLE_EXAMPLES);
  const conventional = usesConventionalCommits(examples);
  const system = [
    "You write git commit messages. Answer with the commit message only: no introduction, no explanation, no quotes, no code fences.",
    'The first line is a subject of at most 72 characters that says what the change does, in the imperative mood ("Add", "Fix", not "Added"), with no period at its end.',
    "When the change needs more words than the subject (why it was made, what else changed, what a reader should know), add a blank line and a body wrapped at 72 characters. A small, obvious change needs no body.",
    "Describe the change as a whole and its purpose, not each file or line. Never invent what the diff does not show.",
    examples.length > 0
      ? conventional
        ? "This repository uses Conventional Commits: start the subject with a type such as feat, fix, docs, refactor, test or chore, and a scope in parentheses where its examples have one, as in its recent subjects."
        : 'Follow the style of the repository\'s recent subjects (language, capitalisation, prefixes such as a component name, length). They do not use Conventional Commits, so do not start the subject with "feat:" or "fix:".'
      : 'The repository has no commits yet to take a style from: write a plain subject, without a "feat:"-style prefix.',
  ].join("\n");

  const what = input.scope === "staged" ? "the staged changes" : "all uncommitted changes (nothing is staged)";
  const stats = `${input.diff.files} file${input.diff.files === 1 ? "" : "s"}, +${input.diff.added} -${input.diff.removed} lines`;
  const parts = [
    examples.length > 0
      ? `The repository's ${examples.length} most recent commit subjects, newest first (follow their style):\n${examples.map((s) => `- ${s}`).join("\n")}`
      : "The repository has no commits yet.",
    `Write the commit message for ${what}: ${stats}.`,
    input.diff.summarized
      ? "The diff is too large to show whole: each file's line (=== path (what happened, +added -removed)) is complete, and its hunks are cut to fit; [not shown: …] says what was left out."
      : "Each file starts with a line === path (what happened, +added -removed), followed by its hunks.",
    `<diff>\n${input.diff.text}\n</diff>`,
  ];
  return { system, user: parts.join("\n\n") };
}
