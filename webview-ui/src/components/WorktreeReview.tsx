import type { SyntheticEvent } from "react";
import type { RemoteBranchesView, WorktreeView } from "../../../src/protocol";
import { ChangedFileList } from "./ChangedFileList";
import { RemoteBranchList } from "./RemoteBranchList";
import { postToHost } from "../vscodeApi";

const STATE_TEXT: Record<WorktreeView["state"], string> = {
  running: "running",
  interrupted: "interrupted",
  done: "done",
  failed: "failed",
  cancelled: "cancelled",
  applied: "applied",
};

const act = (w: WorktreeView, action: "apply" | "discard" | "open" | "openTask" | "diff", path?: string) =>
  postToHost({ type: "worktreeAction", taskId: w.taskId, action, ...(path ? { path } : {}) });

function Actions({ w, openTask }: { w: WorktreeView; openTask: boolean }) {
  const idle = w.state !== "running";
  return (
    <div className="worktree-actions">
      {openTask && w.inHistory ? (
        <button
          type="button"
          className="button secondary"
          aria-label={`Open task ${w.title}`}
          onClick={() => act(w, "openTask")}
        >
          <span className="codicon codicon-comment-discussion" aria-hidden="true" /> Open Task
        </button>
      ) : null}
      {idle && w.exists && w.state !== "applied" && (w.files?.length ?? 1) > 0 ? (
        <button
          type="button"
          className="button primary"
          aria-label={`Apply ${w.branch} to your working tree`}
          title="Bring its changes into your working tree as uncommitted changes"
          onClick={() => act(w, "apply")}
        >
          <span className="codicon codicon-check" aria-hidden="true" /> Apply
        </button>
      ) : null}
      {idle ? (
        <button
          type="button"
          className="button secondary"
          aria-label={`Discard ${w.branch}`}
          title="Remove the worktree and its branch"
          onClick={() => act(w, "discard")}
        >
          <span className="codicon codicon-trash" aria-hidden="true" /> Discard
        </button>
      ) : null}
      {w.exists ? (
        <button
          type="button"
          className="button secondary"
          aria-label={`Open ${w.branch} in a new window`}
          onClick={() => act(w, "open")}
        >
          <span className="codicon codicon-empty-window" aria-hidden="true" /> Open
        </button>
      ) : null}
    </div>
  );
}

function Files({ w }: { w: WorktreeView }) {
  if (!w.exists)
    return <p className="worktree-note">Its folder is gone. Discard it to remove the branch and git's record.</p>;
  if (w.files === null) return null;
  if (w.files.length === 0) return <p className="worktree-note">No file changed.</p>;
  return (
    <ChangedFileList label={`Files changed in ${w.branch}`} files={w.files} onOpen={(path) => act(w, "diff", path)} />
  );
}

/** The shown task's worktree: where it works, what it changed against its start, and Apply / Discard / Open. */
export function WorktreeReview({ worktree: w }: { worktree: WorktreeView }) {
  return (
    <section className="worktree-review" aria-label={`Worktree ${w.branch}`}>
      <h2 className="worktree-heading">
        <span className="codicon codicon-git-branch" aria-hidden="true" /> {w.branch} · {STATE_TEXT[w.state]}
      </h2>
      {w.state === "running" ? (
        <p className="worktree-note">
          Working in its own folder (<span title={w.path}>…/{w.path.split(/[\\/]/).pop()}</span>). Your working tree is
          untouched until you Apply.
        </p>
      ) : null}
      {w.state === "applied" ? (
        <p className="worktree-note">
          Applied to your working tree as uncommitted changes. Discard the worktree when you no longer need it.
        </p>
      ) : null}
      <Files w={w} />
      <Actions w={w} openTask={false} />
    </section>
  );
}

/**
 * The repository's other task worktrees (other windows, the CLI, interrupted tasks) and the
 * remotes' `fathom/*` branches, fetched when the list is first opened.
 */
export function WorktreeList({ worktrees, remote }: { worktrees: WorktreeView[]; remote: RemoteBranchesView }) {
  if (worktrees.length === 0 && !remote.hasRemote) return null;
  const onToggle = (e: SyntheticEvent<HTMLDetailsElement>) => {
    if (e.currentTarget.open && remote.fetchedAt === null && !remote.fetching)
      postToHost({ type: "remoteBranchAction", action: "refresh" });
  };
  const count = worktrees.length + remote.branches.length;
  return (
    <details className="worktree-list" onToggle={onToggle}>
      <summary>
        <h2 className="worktree-list-heading" id="worktree-list-heading">
          Worktrees{count > 0 ? ` (${count})` : ""}
        </h2>
      </summary>
      {worktrees.length > 0 ? (
        <ul aria-labelledby="worktree-list-heading">
          {worktrees.map((w) => (
            <li key={w.taskId} aria-label={`${w.title}: ${w.branch}, ${STATE_TEXT[w.state]}`}>
              <div className="worktree-row">
                <span className="worktree-title">{w.title}</span>
                <span className="worktree-meta">
                  {w.branch} · {STATE_TEXT[w.state]}
                  {w.files ? ` · ${w.files.length} file${w.files.length === 1 ? "" : "s"} changed` : ""}
                </span>
              </div>
              <Actions w={w} openTask />
            </li>
          ))}
        </ul>
      ) : null}
      <RemoteBranchList remote={remote} />
    </details>
  );
}
