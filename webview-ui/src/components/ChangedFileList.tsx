/** A file a branch changed against its base, as git reports it. */
export interface ChangedFile {
  path: string;
  status: "added" | "modified" | "deleted";
}

const LETTER: Record<ChangedFile["status"], string> = { added: "A", modified: "M", deleted: "D" };

/** The files a worktree or a pushed branch changed, each a button that opens its diff. */
export function ChangedFileList({
  label,
  files,
  onOpen,
}: {
  label: string;
  files: readonly ChangedFile[];
  onOpen: (path: string) => void;
}) {
  return (
    <ul className="worktree-files" aria-label={label}>
      {files.map((f) => (
        <li key={f.path}>
          <button
            type="button"
            className="link-button"
            aria-label={`${f.path}, ${f.status}: open its diff`}
            onClick={() => onOpen(f.path)}
          >
            <span className={`worktree-file-status status-${f.status}`} aria-hidden="true">
              {LETTER[f.status]}
            </span>
            {f.path}
          </button>
        </li>
      ))}
    </ul>
  );
}
