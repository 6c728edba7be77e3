import { useEffect, useRef, useState } from "react";
import type { RestorePreview } from "../../../src/protocol";
import { formatBytes as mb } from "../lib/format";
import { revealInvisible } from "../lib/invisible";
import { postToHost } from "../vscodeApi";

const ACTION_TEXT: Record<RestorePreview["files"][number]["action"], string> = {
  write: "put back its earlier text",
  recreate: "recreated with its earlier text",
  delete: "deleted (Fathom created it)",
};

/** Opens the file's diff in the editor: as it is now, beside what the restore makes it. */
function DiffButton({ path }: { path: string }) {
  return (
    <button
      type="button"
      className="link-button"
      onClick={() => postToHost({ type: "compareRestore", path })}
      aria-label={`Show the diff of ${path}`}
      title="The file now, beside what the restore makes it"
    >
      Diff
    </button>
  );
}

/**
 * What "Restore" would do, before it does it: the files it changes (a file changed since
 * Fathom's last change is a conflict, left as it is unless ticked after a look at its diff),
 * what commands changed (not restored), and how much of the conversation goes.
 */
export function RestorePanel({ preview }: { preview: RestorePreview }) {
  const [overwrite, setOverwrite] = useState<string[]>([]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [preview.itemId]);
  const restore = (what: "files" | "conversation" | "both") =>
    postToHost({ type: "restore", itemId: preview.itemId, what, overwrite });
  const changes = preview.files.filter((f) => !f.conflict && !f.notKept).length;
  return (
    <section className="restore-panel" aria-labelledby="restore-heading">
      <h2 id="restore-heading" tabIndex={-1} ref={heading}>
        Restore to {preview.label}
      </h2>
      {preview.files.length === 0 ? (
        <p>No file changes: Fathom changed no file after this point (or they are already as they were).</p>
      ) : null}
      <ul className="restore-files" aria-label="Files">
        {preview.files.map((f) => (
          <li key={f.path} className={f.conflict ? "conflict" : undefined}>
            <span
              className={`codicon codicon-${f.conflict || f.notKept ? "warning" : f.action === "delete" ? "trash" : "discard"}`}
              aria-hidden="true"
            />
            <span className="restore-path">{revealInvisible(f.path)}</span>{" "}
            {f.notKept ? (
              <span className="restore-note">cannot be restored: {f.notKept}</span>
            ) : f.conflict ? (
              <>
                <span className="restore-note">{f.conflict}: left as it is</span>
                <DiffButton path={f.path} />
                <label className="restore-overwrite">
                  <input
                    type="checkbox"
                    checked={overwrite.includes(f.path)}
                    onChange={(e) =>
                      setOverwrite(e.target.checked ? [...overwrite, f.path] : overwrite.filter((p) => p !== f.path))
                    }
                  />
                  Overwrite anyway
                </label>
              </>
            ) : (
              <>
                <span className="restore-note">{ACTION_TEXT[f.action]}</span>
                <DiffButton path={f.path} />
              </>
            )}
          </li>
        ))}
      </ul>
      {preview.commands.length ? (
        <p className="restore-commands">
          Not restored: what {preview.commands.length > 1 ? `${preview.commands.length} commands` : "a command"} changed
          ({preview.commands.join(", ")}).
        </p>
      ) : null}
      <p className="restore-conversation">
        Restoring the conversation removes the {preview.laterItems} entries from this point on.
      </p>
      <div className="restore-buttons">
        <button type="button" className="button primary" onClick={() => restore("both")}>
          Restore files and conversation
        </button>
        <button
          type="button"
          className="button secondary"
          onClick={() => restore("files")}
          disabled={changes + overwrite.length === 0}
        >
          Restore files only
        </button>
        <button type="button" className="button secondary" onClick={() => restore("conversation")}>
          Restore conversation only
        </button>
        <button type="button" className="button secondary" onClick={() => postToHost({ type: "closeRestore" })}>
          Cancel
        </button>
      </div>
      <p className="restore-storage">
        Checkpoints use {mb(preview.storageBytes)} of {mb(preview.storageLimitBytes)} (fathom.checkpoints.maxStorageMb).
      </p>
    </section>
  );
}
