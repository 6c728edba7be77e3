import { structuredPatch } from "diff";
import type { FileChangeProposal } from "../../core";
import type { Proposal } from "../../protocol";

/** Most characters of a diff a card carries; the rest is summarised (the diff editor shows it all). */
export const MAX_CARD_DIFF_CHARS = 100_000;

/**
 * A whole-file proposal as the chat's diff card: a unified diff with +/- counts. `outcome`
 * says how it ended ("pending" while the person decides).
 */
export function proposalView(proposal: FileChangeProposal, outcome: Proposal["outcome"], reason?: string): Proposal {
  const before = proposal.before ?? "";
  const patch = structuredPatch(proposal.path, proposal.path, before, proposal.after, undefined, undefined, { context: 3 });
  let added = 0;
  let removed = 0;
  const lines: string[] = [
    `--- ${proposal.before === null ? "/dev/null" : `a${proposal.path}`}`,
    `+++ b${proposal.path}`,
  ];
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
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
    outcome,
    ...(reason ? { reason } : {}),
  };
}
