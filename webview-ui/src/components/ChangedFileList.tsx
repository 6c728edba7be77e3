import type { ReactNode } from "react";

/** A file a branch or a task changed against its base. */
export interface ChangedFile {
  path: string;
  status: "added" | "modified" | "deleted";
  /** Lines added and removed (the Changes list shows them; git's lists do not). */
  counts?: { added: number; removed: number };
  /** A line under the file (why some of it cannot be undone). */
  note?: string;
}

const LETTER: Record<ChangedFile["status"], string> = { added: "A", modified: "M", deleted: "D" };

/**
 * The files a worktree, a pushed branch or a task changed, each a button that opens its diff,
 * with the row's own actions when given. Rows are plain elements (no per-row state), so a list
 * of hundreds paints at once.
 */
export function ChangedFileList({
  label,
  files,
  onOpen,
  actions,
}: {
  label: string;
  files: readonly ChangedFile[];
  onOpen: (path: string) => void;
  actions?: (file: ChangedFile) => ReactNode;
}) {
  return (
    <ul className="worktree-files" aria-label={label}>
      {files.map((f) => (
        <li key={f.path} className={actions ? "changed-file-row" : undefined}>
          <button
            type="button"
            className="link-button"
            aria-label={`${f.path}, ${f.status}${f.counts ? `, ${f.counts.added} added, ${f.counts.removed} removed` : ""}: open its diff`}
            onClick={() => onOpen(f.path)}
          >
            <span className={`worktree-file-status status-${f.status}`} aria-hidden="true">
              {LETTER[f.status]}
            </span>
            {f.path}
          </button>
          {f.counts ? (
            <span className="changed-file-counts" aria-hidden="true">
              <span className="count-added">+{f.counts.added}</span>{" "}
              <span className="count-removed">−{f.counts.removed}</span>
            </span>
          ) : null}
          {actions ? <span className="changed-file-actions">{actions(f)}</span> : null}
          {f.note ? <span className="changed-file-note">{f.note}</span> : null}
        </li>
      ))}
    </ul>
  );
}
