import { memo, useMemo } from "react";
import { parseUnifiedDiff } from "../lib/diffLines";
import { highlight, languageOfPath } from "../lib/highlight";

/** Lines drawn in the card; "Open in diff editor" shows the rest. */
const MAX_LINES = 400;
const SIGNS = { add: "+", del: "−", ctx: " ", hunk: "", note: "" } as const;
const SPOKEN = { add: "added", del: "removed", ctx: "", hunk: "", note: "" } as const;

/** A unified diff with line numbers, +/− markers (not colour alone) and syntax colours. */
export const DiffLines = memo(function DiffLines({ diff, path }: { diff: string; path: string }) {
  const parsed = useMemo(() => parseUnifiedDiff(diff), [diff]);
  const language = languageOfPath(path);
  const shown = parsed.lines.slice(0, MAX_LINES);
  const more = parsed.lines.length - shown.length;
  if (parsed.lines.length === 0) return <p className="diff-empty">No changes to show.</p>;
  return (
    <div className="diff-lines" tabIndex={0} role="group" aria-label={`Diff of ${path}`}>
      {shown.map((line, index) => (
        <div key={index} className={`diff-line ${line.kind}`}>
          <span className="ln" aria-hidden="true">
            {line.oldLine ?? ""}
          </span>
          <span className="ln" aria-hidden="true">
            {line.newLine ?? ""}
          </span>
          <span className="sign" aria-hidden="true">
            {SIGNS[line.kind]}
          </span>
          {SPOKEN[line.kind] ? <span className="visually-hidden">{SPOKEN[line.kind]}: </span> : null}
          {line.kind === "hunk" || line.kind === "note" ? (
            <span className="diff-text">{line.text}</span>
          ) : (
            <code
              className="diff-text hljs"
              dangerouslySetInnerHTML={{ __html: highlight(line.text, language) || " " }}
            />
          )}
        </div>
      ))}
      {more > 0 ? (
        <div className="diff-line note">… {more} more lines: open the diff editor to see them all.</div>
      ) : null}
    </div>
  );
});
