import { structuredPatch } from "diff";
import { isMemoryPath, type FileChangeProposal } from "../../core";
import type { Proposal } from "../../protocol";

/** Most characters of a diff a card carries; the rest is summarised (the diff editor shows it all). */
export const MAX_CARD_DIFF_CHARS = 100_000;

/**
 * A whole-file proposal as the chat's diff card: a unified diff with +/- counts. `outcome`
 * says how it ended ("pending" while the person decides).
 */
export function proposalView(proposal: FileChangeProposal, outcome: Proposal["outcome"], reason?: string): Proposal {
  const before = proposal.before ?? "";
  // A memory reaches every later task: its card shows the whole text, not three lines around the change.
  const memory = isMemoryPath(proposal.path);
  const patch = structuredPatch(proposal.path, proposal.path, before, proposal.after, undefined, undefined, {
    context: memory ? Number.MAX_SAFE_INTEGER : 3,
  });
  let added = 0;
  let removed = 0;
  const lines: string[] = [
    `--- ${proposal.before === null ? "/dev/null" : `a${proposal.path}`}`,
    `+++ b${proposal.path}`,
  ];
  for (const hunk of patch.hunks) {
    // Unified diff numbers an empty side from the line before it (`-0,0` for a new file), as parsePatch expects.
    const start = (at: number, count: number) => (count === 0 ? at - 1 : at);
    lines.push(
      `@@ -${start(hunk.oldStart, hunk.oldLines)},${hunk.oldLines} +${start(hunk.newStart, hunk.newLines)},${hunk.newLines} @@`,
    );
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
      lines.push(line);
    }
  }
  let diff = lines.join("\n");
  if (diff.length > MAX_CARD_DIFF_CHARS) {
    diff = `${diff.slice(0, MAX_CARD_DIFF_CHARS)}\n… (diff cut at ${MAX_CARD_DIFF_CHARS} characters; open the diff editor to see all of it)`;
  }
  return {
    path: proposal.path,
    diff,
    added,
    removed,
    isNewFile: proposal.before === null,
    ...(memory ? { memory: true } : {}),
    outcome,
    ...(reason ? { reason } : {}),
  };
}
