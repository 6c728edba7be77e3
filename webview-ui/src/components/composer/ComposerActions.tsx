import type { TaskMode } from "../../../../src/protocol";
import { postToHost } from "../../vscodeApi";
import { ModeSwitch } from "../ModeSwitch";

interface Props {
  mode: TaskMode;
  onMode: (mode: TaskMode) => void;
  running: boolean;
  /** There is something to send (text, an image or a chip). */
  hasContent: boolean;
  /** The model reads images: the hint says they can be pasted. */
  takesImages: boolean;
  /** Queue: send when the running task ends. */
  onQueue: () => void;
}

/** The row under the message box: the Plan / Act switch, the keys' hint, Send (or Send now, Queue and Cancel while a task runs). */
export function ComposerActions({ mode, onMode, running, hasContent, takesImages, onQueue }: Props) {
  return (
    <div className="composer-row">
      <ModeSwitch mode={mode} onChange={onMode} />
      <span className="composer-hint" id="composer-hint">
        Enter to send, Shift+Enter for a new line, Up for earlier messages
        {takesImages ? ", paste or drop an image" : ""}
      </span>
      {running && hasContent ? (
        <>
          <button
            type="submit"
            className="button secondary"
            title="Send now (Enter): the agent reads it at its next step (a running command finishes first; an answer being written stops)"
          >
            <span className="codicon codicon-send" aria-hidden="true" />
            Send now
          </button>
          <button
            type="button"
            className="button secondary"
            title="Queue: send it when the task ends"
            onClick={onQueue}
          >
            <span className="codicon codicon-list-ordered" aria-hidden="true" />
            Queue
          </button>
        </>
      ) : null}
      {running ? (
        <button
          type="button"
          className="button primary"
          onClick={() => postToHost({ type: "cancel" })}
          title="Stop the running task"
        >
          <span className="codicon codicon-debug-stop" aria-hidden="true" />
          Cancel
        </button>
      ) : (
        <button type="submit" className="button primary" disabled={!hasContent} title="Send (Enter)">
          <span className="codicon codicon-send" aria-hidden="true" />
          Send
        </button>
      )}
    </div>
  );
}
