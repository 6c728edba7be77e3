import { useMemo } from "react";
import type { ChangesView } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";
import { ChangedFileList, type ChangedFile } from "./ChangedFileList";

const act = (action: "keep" | "undo" | "open", path?: string) =>
  postToHost({ type: "changesAction", action, ...(path !== undefined ? { path } : {}) });

/**
 * "Review after": the files the task changed that the person has not reviewed, with +/− counts,
 * Keep and Undo per file and for all; a file opens its diff against the task's start, where
 * each hunk has its own Keep and Undo (CodeLenses).
 */
export function ChangesList({ changes }: { changes: ChangesView }) {
  const files = useMemo(
    () =>
      changes.files.map((f): ChangedFile => ({
        path: f.path,
        status: f.created ? "added" : "modified",
        counts: { added: f.added, removed: f.removed },
        ...(f.problem
          ? { note: `Cannot be undone here: ${f.problem}` }
          : f.conflicts.length
            ? { note: `Some changes cannot be undone: ${f.conflicts.join("; ")}` }
            : {}),
      })),
    [changes],
  );
  const n = files.length;
  return (
    <section className="changes-list" aria-label="Changes">
      <h2 className="changes-heading">
        Changes · {n} file{n === 1 ? "" : "s"} to review
      </h2>
      <div className="worktree-actions">
        <button type="button" className="button" onClick={() => act("keep")} aria-label="Keep all changes">
          Keep all
        </button>
        <button type="button" className="button secondary" onClick={() => act("undo")} aria-label="Undo all changes">
          Undo all
        </button>
      </div>
      <ChangedFileList
        label="Files to review"
        files={files}
        onOpen={(path) => act("open", path)}
        actions={(f) => (
          <>
            <button
              type="button"
              className="link-button"
              onClick={() => act("keep", f.path)}
              aria-label={`Keep ${f.path}`}
            >
              Keep
            </button>
            <button
              type="button"
              className="link-button"
              onClick={() => act("undo", f.path)}
              aria-label={`Undo ${f.path}`}
            >
              Undo
            </button>
          </>
        )}
      />
    </section>
  );
}
