import type { RemoteBranchesView, RemoteBranchView } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";
import { ChangedFileList } from "./ChangedFileList";

const act = (action: "refresh" | "diff" | "apply" | "checkout", ref?: string, path?: string) =>
  postToHost({ type: "remoteBranchAction", action, ...(ref ? { ref } : {}), ...(path ? { path } : {}) });

const time = (at: number) => new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

function Branch({ b }: { b: RemoteBranchView }) {
  const name = `${b.remote}/${b.branch}`;
  return (
    <li aria-label={`${name}: ${b.files.length} file${b.files.length === 1 ? "" : "s"} changed`}>
      <div className="worktree-row">
        <span className="worktree-title">{b.subject || b.branch}</span>
        <span className="worktree-meta">
          <span className="codicon codicon-cloud" aria-hidden="true" /> {name} · {b.files.length} file
          {b.files.length === 1 ? "" : "s"} changed
        </span>
      </div>
      {b.files.length > 0 ? (
        <ChangedFileList
          label={`Files changed in ${name}`}
          files={b.files}
          onOpen={(path) => act("diff", b.ref, path)}
        />
      ) : null}
      <div className="worktree-actions">
        {b.files.length > 0 ? (
          <button
            type="button"
            className="button primary"
            aria-label={`Apply ${name} to your working tree`}
            title="Bring its changes into your working tree as uncommitted changes"
            onClick={() => act("apply", b.ref)}
          >
            <span className="codicon codicon-check" aria-hidden="true" /> Apply
          </button>
        ) : null}
        <button
          type="button"
          className="button secondary"
          aria-label={`Check out ${name} as a worktree`}
          title="Make a worktree of it, on a local branch that tracks it"
          onClick={() => act("checkout", b.ref)}
        >
          <span className="codicon codicon-repo-clone" aria-hidden="true" /> Check Out
        </button>
      </div>
    </li>
  );
}

/** The remotes' `fathom/*` branches (the GitHub Action's, other machines'), inside the Worktrees list. */
export function RemoteBranchList({ remote }: { remote: RemoteBranchesView }) {
  if (!remote.hasRemote) return null;
  const status = remote.fetching
    ? "Fetching fathom/* branches…"
    : remote.fetchedAt === null
      ? "Not fetched yet."
      : `Fetched at ${time(remote.fetchedAt)}${remote.branches.length === 0 ? ": no fathom/* branch on the remote." : "."}`;
  return (
    <section className="remote-branches" aria-labelledby="remote-branches-heading">
      <div className="remote-branches-head">
        <h3 className="worktree-list-heading" id="remote-branches-heading">
          On the remote ({remote.branches.length})
        </h3>
        <button
          type="button"
          className="icon-button"
          aria-label="Fetch the remote's fathom branches again"
          title="Fetch again"
          disabled={remote.fetching}
          onClick={() => act("refresh")}
        >
          <span
            className={`codicon codicon-refresh${remote.fetching ? " codicon-modifier-spin" : ""}`}
            aria-hidden="true"
          />
        </button>
      </div>
      <p className="worktree-note" role="status">
        {status}
      </p>
      {remote.problems.map((p) => (
        <p key={p} className="worktree-note remote-problem">
          <span className="codicon codicon-warning" aria-hidden="true" /> Could not fetch {p}
        </p>
      ))}
      {remote.branches.length > 0 ? (
        <ul aria-labelledby="remote-branches-heading">
          {remote.branches.map((b) => (
            <Branch key={b.ref} b={b} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
