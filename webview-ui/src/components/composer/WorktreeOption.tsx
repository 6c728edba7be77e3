import type { ChatState } from "../../../../src/protocol";

interface Props {
  worktree: ChatState["parallel"]["worktreeMode"];
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Other tasks run in this folder. */
  sharedWith: number;
}

/** A new task's Worktree checkbox, and why not when it cannot (said aloud when another task shares the folder). */
export function WorktreeOption({ worktree, checked, onChange, sharedWith }: Props) {
  return (
    <div className="composer-worktree">
      <label
        title={
          worktree.available
            ? "Runs on a new branch fathom/<title> in a folder of its own: your working tree is untouched until you Apply"
            : worktree.reason
        }
      >
        <input
          type="checkbox"
          checked={checked}
          disabled={!worktree.available}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span className="codicon codicon-git-branch" aria-hidden="true" /> Worktree
      </label>
      {/* Why not, said where it matters (another task shares the folder), else on hover and to screen readers. */}
      {sharedWith > 0 && !checked ? (
        <span className="composer-worktree-why" role="note">
          {sharedWith === 1 ? "Another task is" : `${sharedWith} other tasks are`} running in this folder: their edits
          may collide with this one's.
          {!worktree.available && worktree.reason ? ` ${worktree.reason}` : ""}
        </span>
      ) : !worktree.available && worktree.reason ? (
        <span className="visually-hidden">{worktree.reason}</span>
      ) : null}
    </div>
  );
}
