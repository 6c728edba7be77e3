import type { OpenTaskView } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";
import { IconButton } from "./IconButton";

export const TASK_STATUS_TEXT: Record<OpenTaskView["status"], { text: string; icon: string }> = {
  idle: { text: "New", icon: "circle-outline" },
  running: { text: "Running", icon: "loading codicon-modifier-spin" },
  awaiting_approval: { text: "Needs you", icon: "bell-dot" },
  completed: { text: "Done", icon: "pass" },
  failed: { text: "Failed", icon: "error" },
  cancelled: { text: "Cancelled", icon: "circle-slash" },
  interrupted: { text: "Interrupted", icon: "debug-pause" },
};

/** The window's open tasks (shown when there is more than one): which runs, which needs the person; a click shows it. */
export function TaskList({ tasks }: { tasks: OpenTaskView[] }) {
  if (tasks.length < 2) return null;
  return (
    <nav className="task-list" aria-label="Tasks">
      <ul>
        {tasks.map((t) => {
          const status = TASK_STATUS_TEXT[t.status];
          return (
            <li key={t.key}>
              <button
                type="button"
                className={`task-tab${t.shown ? " shown" : ""}${t.needsYou ? " needs-you" : ""}`}
                aria-current={t.shown ? "true" : undefined}
                // The visible text ("<title> <status>") first, so a voice command naming what is seen finds it.
                aria-label={`${t.title} ${status.text}${t.branch ? `, in worktree ${t.branch}` : ""}`}
                title={t.branch ? `${t.title} (${t.branch})` : t.title}
                onClick={() => postToHost({ type: "switchTask", key: t.key })}
              >
                <span className={`codicon codicon-${status.icon}`} aria-hidden="true" />
                <span className="task-tab-title">{t.title}</span> <span className="task-tab-status">{status.text}</span>
                {t.branch ? <span className="codicon codicon-git-branch" aria-hidden="true" /> : null}
              </button>
              {t.status === "running" || t.status === "awaiting_approval" ? null : (
                <IconButton
                  icon="close"
                  label={`Close ${t.title}`}
                  title="Close (it stays in History)"
                  onClick={() => postToHost({ type: "closeTask", key: t.key })}
                />
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
