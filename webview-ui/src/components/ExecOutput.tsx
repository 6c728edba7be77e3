import { useLayoutEffect, useRef } from "react";
import type { ExecInfo } from "../../../src/protocol";
import { revealInvisible } from "../lib/invisible";

/** Characters of output rendered; the full text stays in the terminal. */
const SHOWN_CHARS = 20_000;

function exitLabel(exec: ExecInfo, running: boolean): { text: string; kind: string; icon: string } {
  if (exec.timedOut) return { text: "timed out", kind: "failed", icon: "watch" };
  if (exec.exitCode === undefined || exec.exitCode === null) {
    return running
      ? { text: "running", kind: "running", icon: "loading codicon-modifier-spin" }
      : { text: "no exit code", kind: "neutral", icon: "circle-slash" };
  }
  return exec.exitCode === 0
    ? { text: "exit code 0", kind: "ok", icon: "pass" }
    : { text: `exit code ${exec.exitCode}`, kind: "failed", icon: "error" };
}

/** An `execute` card's terminal output, streamed live and kept scrolled to the end. */
export function ExecOutput({ exec, running }: { exec: ExecInfo; running: boolean }) {
  const pre = useRef<HTMLPreElement>(null);
  const stick = useRef(true);
  const hidden = exec.output.length > SHOWN_CHARS;
  const shown = hidden ? exec.output.slice(-SHOWN_CHARS) : exec.output;
  const exit = exitLabel(exec, running);

  useLayoutEffect(() => {
    const el = pre.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [shown]);

  return (
    <div className="exec">
      <div className="exec-header">
        <span className="codicon codicon-terminal" aria-hidden="true" />
        <code className="exec-command">{revealInvisible(exec.command)}</code>
        <span className={`exit exit-${exit.kind}`}>
          <span className={`codicon codicon-${exit.icon}`} aria-hidden="true" />
          {exit.text}
        </span>
      </div>
      {exec.via ? <div className="exec-via">Ran in {exec.via}</div> : null}
      {shown ? (
        <pre
          ref={pre}
          className="exec-output"
          tabIndex={0}
          role="group"
          aria-label={`Output of ${exec.command}`}
          onScroll={(event) => {
            const el = event.currentTarget;
            stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 8;
          }}
        >
          {hidden || exec.truncated ? <span className="exec-note">[earlier output not shown]{"\n"}</span> : null}
          {shown}
        </pre>
      ) : null}
    </div>
  );
}
