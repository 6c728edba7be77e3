import { useEffect, useRef } from "react";
import type { CheckpointStorage, TaskStatus, TaskSummary } from "../../../src/protocol";
import { formatBytes, formatWhen } from "../lib/format";
import { postToHost } from "../vscodeApi";
import { IconButton } from "./IconButton";

const STATUS_TEXT: Record<TaskStatus, string> = {
  idle: "Not started",
  running: "Running",
  awaiting_approval: "Waiting for approval",
  completed: "Completed",
  failed: "Failed",
  cancelled: "Cancelled",
  interrupted: "Interrupted",
};

interface Props {
  history: TaskSummary[];
  currentTaskId: string | null;
  storage?: CheckpointStorage | null;
  onClose: () => void;
}

/** Earlier tasks; opening one asks the host to load it. Escape closes. */
export function HistoryList({ history, currentTaskId, storage, onClose }: Props) {
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    panel.current?.querySelector<HTMLElement>("button")?.focus();
  }, []);
  return (
    <nav
      className="history"
      id="history-panel"
      aria-label="Task history"
      ref={panel}
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
    >
      {history.length === 0 ? (
        <p className="muted">No earlier tasks yet.</p>
      ) : (
        <ul className="history-list">
          {history.map((task) => (
            <li key={task.id}>
              <button
                type="button"
                className="history-item"
                aria-current={task.id === currentTaskId ? "true" : undefined}
                onClick={() => {
                  postToHost({ type: "openTask", taskId: task.id });
                  onClose();
                }}
              >
                <span className="history-title">{task.title || "Untitled task"}</span>
                <span className="history-meta">
                  {STATUS_TEXT[task.status]} · {formatWhen(task.updatedAt)}
                </span>
              </button>
              <IconButton
                icon="trash"
                className="history-delete"
                label={`Delete task ${task.title || "Untitled task"}`}
                title="Delete this task and its checkpoints"
                onClick={() => postToHost({ type: "deleteTask", taskId: task.id })}
              />
            </li>
          ))}
        </ul>
      )}
      {storage ? (
        <p className="history-storage muted">
          Storage used: checkpoints take {formatBytes(storage.usedBytes)} of {formatBytes(storage.limitBytes)}{" "}
          (fathom.checkpoints.maxStorageMb; the oldest tasks' go first). Deleting a task frees its checkpoints.
        </p>
      ) : null}
    </nav>
  );
}
