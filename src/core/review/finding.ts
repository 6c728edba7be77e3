/**
 * A review's finding: one problem on one changed line range of one file, as the model reports it
 * (`report_finding`) and as the CLI, the Action and VS Code show it. The schema is checked where a
 * finding enters; where it may be (a file and lines the diff shows) is `diffLines.ts`' check.
 */
import { z } from "zod";

/** How much a finding matters: `bug` is wrong behaviour, `risk` may break (security, data, edge cases), `nit` is style or clarity. */
export const REVIEW_SEVERITIES = ["bug", "risk", "nit"] as const;
export type ReviewSeverity = (typeof REVIEW_SEVERITIES)[number];

/** A suggested fix longer than this is no small fix; the finding says it in words instead. */
export const MAX_FIX_LINES = 40;
export const MAX_TITLE_CHARS = 120;
export const MAX_WHY_CHARS = 2_000;

/** A finding as every consumer gets it. Lines are the new side's, 1-based, `endLine >= startLine`. */
export const ReviewFindingSchema = z
  .object({
    /** The file's path from the repository's top folder, with `/` (as git prints it). */
    file: z.string().min(1),
    startLine: z.number().int().positive(),
    endLine: z.number().int().positive(),
    severity: z.enum(REVIEW_SEVERITIES),
    title: z.string().trim().min(1).max(MAX_TITLE_CHARS),
    why: z.string().trim().min(1).max(MAX_WHY_CHARS),
    /** Replacement text for lines startLine..endLine (no final newline), when the fix is small. */
    fix: z
      .string()
      .refine((text) => text.split("\n").length <= MAX_FIX_LINES, `a fix is at most ${MAX_FIX_LINES} lines`)
      .optional(),
  })
  .refine((f) => f.endLine >= f.startLine, { message: "endLine must not be before startLine", path: ["endLine"] });

export type ReviewFinding = z.infer<typeof ReviewFindingSchema>;

/** Where a finding is, as people read it (terminal, chat, editor): `src/a.ts:12` or `src/a.ts:12-14`. */
export function findingPlace(f: Pick<ReviewFinding, "file" | "startLine" | "endLine">): string {
  return `${f.file}:${f.endLine > f.startLine ? `${f.startLine}-${f.endLine}` : f.startLine}`;
}

/** `report_finding`'s arguments, as the model sees them (a line, an optional last line). */
export const ReportFindingArgsSchema = z.object({
  file: z.string().min(1).describe("The changed file's path from the repository root, as the diff names it."),
  line: z.number().int().positive().describe("The first line of the problem, numbered as the diff shows (new side)."),
  end_line: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("The last line, when the problem spans several lines of the same hunk."),
  severity: z
    .enum(REVIEW_SEVERITIES)
    .describe("bug: wrong behaviour; risk: may break (security, data loss, edge case); nit: style or clarity."),
  title: z.string().min(1).max(MAX_TITLE_CHARS).describe("One line: what is wrong."),
  why: z.string().min(1).max(MAX_WHY_CHARS).describe("Why it is wrong and what it causes, briefly."),
  fix: z
    .string()
    .optional()
    .describe(
      `Optional: the exact text to replace lines line..end_line with (whole lines, no line numbers, at most ${MAX_FIX_LINES} lines). Leave out when the fix is not small.`,
    ),
});
export type ReportFindingArgs = z.infer<typeof ReportFindingArgsSchema>;

/** The finding the arguments describe, or what is wrong with them (for the model). */
export function findingFromArgs(args: ReportFindingArgs): { finding: ReviewFinding } | { error: string } {
  const parsed = ReviewFindingSchema.safeParse({
    file: args.file.replace(/^\/+/, ""),
    startLine: args.line,
    endLine: args.end_line ?? args.line,
    severity: args.severity,
    title: args.title,
    why: args.why,
    ...(args.fix !== undefined ? { fix: args.fix.replace(/\r\n/g, "\n").replace(/\n$/, "") } : {}),
  });
  if (parsed.success) return { finding: parsed.data };
  const problems = parsed.error.issues.map((i) => {
    const field = i.path[0] === "startLine" ? "line" : i.path[0] === "endLine" ? "end_line" : String(i.path[0] ?? "");
    return `${field}: ${i.message}`;
  });
  return { error: `Finding not recorded: ${problems.join("; ")}. Correct it and call report_finding again.` };
}
