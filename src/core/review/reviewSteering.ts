/**
 * What a repository asks its reviews to look at: `.github/fathom-review.md`, else the section of
 * AGENTS.md whose heading names "review". Read through the run's backend (its path guard: a link
 * out of the repository is refused) and capped. It is a stranger's text, so the prompt quotes it
 * as information; it never changes the tools a review has.
 */
import type { BackendProtocol } from "../backends/protocol";

export const REVIEW_STEERING_FILE = "/.github/fathom-review.md";
/** More than this of a steering file is left out (said in the prompt). */
export const MAX_STEERING_CHARS = 8_000;

export interface ReviewSteering {
  /** Where it came from: `.github/fathom-review.md` or `AGENTS.md (section "…")`. */
  source: string;
  text: string;
}

export async function readReviewSteering(backend: BackendProtocol): Promise<ReviewSteering | undefined> {
  const own = await backend.readText(REVIEW_STEERING_FILE, MAX_STEERING_CHARS * 4);
  if (own.text?.trim()) return { source: ".github/fathom-review.md", text: cap(own.text.trim()) };
  const agents = await backend.readText("/AGENTS.md", 256 * 1024);
  const section = agents.text ? reviewSection(agents.text) : undefined;
  return section ? { source: `AGENTS.md (section "${section.heading}")`, text: cap(section.text) } : undefined;
}

/** The first markdown section whose heading has the word "review", up to the next heading as high or higher. */
export function reviewSection(markdown: string): { heading: string; text: string } | undefined {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => /^#{1,6}\s.*\breview/i.test(l));
  if (start < 0) return undefined;
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#{1,6}\s/.test(l) && /^#+/.exec(l)![0].length <= level);
  const text = lines
    .slice(start + 1, end < 0 ? undefined : end)
    .join("\n")
    .trim();
  return text ? { heading: lines[start]!.replace(/^#+\s*/, "").trim(), text } : undefined;
}

function cap(text: string): string {
  return text.length > MAX_STEERING_CHARS
    ? `${text.slice(0, MAX_STEERING_CHARS)}\n[cut at ${MAX_STEERING_CHARS.toLocaleString("en")} characters]`
    : text;
}
