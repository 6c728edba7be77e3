import type { ToolItem } from "../../../src/protocol";
import { formatDuration } from "../lib/format";
import { revealInvisible } from "../lib/invisible";
import { useNow } from "../lib/useNow";
import { useRemembered } from "../state/remembered";
import { ApprovalBar } from "./ApprovalBar";
import { QuestionCard } from "./QuestionCard";
import { DiffCard } from "./DiffCard";
import { ExecOutput } from "./ExecOutput";
import { StatusBadge, statusText } from "./StatusBadge";
import { ToolTitle } from "./ToolTitle";
import { TranscriptItemView } from "./TranscriptItemView";

const TOOL_ICONS: Record<string, string> = {
  ls: "folder",
  read_file: "file",
  write_file: "new-file",
  edit_file: "edit",
  edit_selection: "edit",
  glob: "search",
  grep: "search",
  execute: "terminal",
  write_todos: "checklist",
  ask_user: "question",
  web_fetch: "globe",
  task: "organization",
  find_definition: "symbol-method",
  find_references: "references",
  document_symbols: "symbol-class",
  workspace_symbols: "symbol-namespace",
  hover: "info",
  get_problems: "warning",
  rename_symbol: "symbol-key",
  rename_in_file: "edit",
  report_finding: "comment-discussion",
};

function isActive(item: ToolItem): boolean {
  return item.status === "running" || item.status === "streaming" || item.status === "awaiting_approval";
}

/**
 * Pretty-printed arguments with invisible characters (bidirectional overrides, zero-width,
 * controls) marked, as on every approval card; the printing's own line breaks stay plain.
 */
function revealLines(text: string) {
  return text.split("\n").flatMap((line, i) => (i === 0 ? revealInvisible(line) : ["\n", ...revealInvisible(line)]));
}

/** One tool call: what it does in words, status, duration, and its details on demand. */
export function ToolCard({ item }: { item: ToolItem }) {
  const [open, setOpen] = useRemembered(`open:${item.id}`, false);
  const active = isActive(item);
  const now = useNow(active && !item.endedAt);
  const duration = (item.endedAt ?? now) - item.startedAt;
  const bodyId = `tool-body-${item.id}`;
  const hasDetails = item.args.trim() !== "" || item.result !== undefined;

  return (
    <article
      className={`tool-card status-${item.status}`}
      aria-label={`${item.title.replace(/`/g, "")}: ${statusText(item.status)}`}
    >
      <div className="tool-header">
        <button
          type="button"
          className="tool-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          disabled={!hasDetails}
          onClick={() => setOpen(!open)}
        >
          <span className={`codicon codicon-chevron-${open ? "down" : "right"}`} aria-hidden="true" />
          <span className={`codicon codicon-${TOOL_ICONS[item.toolName] ?? "tools"}`} aria-hidden="true" />
          <ToolTitle title={item.title} />
        </button>
        <StatusBadge status={item.status} />
        {duration >= 0 && (item.endedAt || active) ? (
          <span className="duration">{formatDuration(duration)}</span>
        ) : null}
      </div>
      {open ? (
        <div className="tool-body" id={bodyId}>
          {item.args.trim() ? (
            <>
              <div className="detail-label">Arguments</div>
              <pre className="detail" tabIndex={0} role="group" aria-label="Arguments">
                {revealLines(item.args)}
              </pre>
            </>
          ) : null}
          {item.result !== undefined ? (
            <>
              <div className="detail-label">Result</div>
              <pre className="detail" tabIndex={0} role="group" aria-label="Result">
                {item.result || "(empty)"}
              </pre>
            </>
          ) : null}
        </div>
      ) : null}
      {item.exec ? <ExecOutput exec={item.exec} running={item.status === "running"} /> : null}
      {item.proposal ? (
        <DiffCard
          toolCallId={item.id}
          toolName={item.toolName}
          proposal={item.proposal}
          status={item.status}
          alwaysAllow={item.alwaysAllow}
        />
      ) : null}
      {item.question ? (
        <QuestionCard toolCallId={item.id} question={item.question} waiting={item.status === "awaiting_approval"} />
      ) : null}
      {item.status === "awaiting_approval" && !item.proposal && !item.question ? (
        <ApprovalBar
          toolCallId={item.id}
          toolName={item.toolName}
          alwaysAllow={item.alwaysAllow}
          reason={item.approvalReason}
        />
      ) : null}
      {item.children?.length ? (
        <div className="subagent" role="group" aria-label="Subagent activity">
          {item.children.map((child) => (
            <TranscriptItemView key={child.id} item={child} />
          ))}
        </div>
      ) : null}
    </article>
  );
}
