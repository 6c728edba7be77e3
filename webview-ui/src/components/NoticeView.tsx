import type { NoticeItem } from "../../../src/protocol";

const ICONS = { info: "info", warning: "warning", error: "error" } as const;
const LABELS = { info: "Note", warning: "Warning", error: "Error" } as const;

export function NoticeView({ item }: { item: NoticeItem }) {
  return (
    <div className={`notice ${item.level}`}>
      <span className={`codicon codicon-${ICONS[item.level]}`} aria-hidden="true" />
      <span className="visually-hidden">{LABELS[item.level]}: </span>
      <span className="notice-text">{item.text}</span>
    </div>
  );
}
