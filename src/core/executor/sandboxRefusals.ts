/**
 * What the OS sandbox refused, read from a command's output, so the model (and the person) are
 * told which write or read failed because of the sandbox and not because of the command. The
 * sandbox shows a refused write as a read-only file system and a hidden folder as empty, so the
 * tools' own error lines are what there is to go on.
 */
const MAX_REFUSALS = 5;

/** The path a tool's error line names: quoted ('…', ‘…’, "…") or before the error's colon. */
function pathIn(line: string, errorAt: number): string | undefined {
  const quoted = /['‘"]([^'’"]+)['’"]/.exec(line)?.[1];
  if (quoted) return quoted;
  // `sh: 1: cannot create /x: Read-only…`, `bash: line 1: ../x: Read-only…`
  return /(?:^|\s)([^\s:]+):\s*$/.exec(line.slice(0, errorAt))?.[1];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * One entry per refused write (`a write to ../x.txt`) and per read of a hidden path (`a read of
 * /home/me/.ssh/id_ed25519`), as found in `output`. `deniedReads` are the folders and files the
 * sandbox hides.
 */
export function refusalsInOutput(output: string, deniedReads: readonly string[]): string[] {
  const found = new Set<string>();
  const hidden = deniedReads.length
    ? new RegExp(`(?:${deniedReads.map((p) => escapeRegExp(p.replace(/\/+$/, ""))).join("|")})(?:/[^\\s'’":]*)?`)
    : undefined;
  for (const line of output.split(/\r?\n/)) {
    if (found.size >= MAX_REFUSALS) break;
    const readOnly = /read-only file system|EROFS/i.exec(line);
    if (readOnly) {
      const path = pathIn(line, readOnly.index);
      found.add(path ? `a write to ${path} (outside the workspace)` : "a write outside the workspace");
      continue;
    }
    const read = hidden?.exec(line);
    if (
      read &&
      /no such file|not a directory|permission denied|operation not permitted|ENOENT|EACCES|EPERM|cannot (open|access|read)/i.test(
        line,
      )
    ) {
      found.add(`a read of ${read[0]} (a secret location the sandbox hides)`);
    }
  }
  return [...found];
}
