import { attachmentLabel, type AttachmentView, type SentAttachment } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";

/** How a chip names what it carries: `src/a.ts:10-20`, `src/a.ts`, the terminal's or problems' label. */
export const chipLabel = attachmentLabel;

const ICON: Record<AttachmentView["kind"], string> = { file: "file-code", terminal: "terminal", problems: "warning" };

function chipTitle(a: AttachmentView): string {
  if (a.kind === "file")
    return a.startLine === undefined
      ? `${chipLabel(a)}: the whole file (or a folder's listing) is sent with the message. Click to open it.`
      : `Lines ${a.startLine}–${a.endLine ?? a.startLine} of ${a.path.replace(/^\//, "")} are sent with the message. Click to open them.`;
  return `${a.text.slice(0, 600)}${a.text.length > 600 ? "…" : ""}`;
}

/** The chips waiting in the message box: each opens its file, or shows its text on hover, and can be removed. */
export function ComposerChips({ chips }: { chips: AttachmentView[] }) {
  if (chips.length === 0) return null;
  return (
    <ul className="chips" aria-label={`Attached to the next message (${chips.length})`}>
      {chips.map((chip, i) => {
        const label = chipLabel(chip);
        return (
          <li key={`${i}:${label}`} className="chip">
            <span className={`codicon codicon-${ICON[chip.kind]}`} aria-hidden="true" />
            {chip.kind === "file" ? (
              <button
                type="button"
                className="chip-label link-button"
                title={chipTitle(chip)}
                onClick={() =>
                  postToHost({
                    type: "openAttachment",
                    path: chip.path,
                    ...(chip.startLine !== undefined ? { line: chip.startLine } : {}),
                  })
                }
              >
                {label}
              </button>
            ) : (
              <span className="chip-label" title={chipTitle(chip)}>
                {label}
              </span>
            )}
            <button
              type="button"
              className="icon-button chip-remove"
              aria-label={`Remove ${label}`}
              title="Remove"
              onClick={() => postToHost({ type: "removeAttachment", index: i })}
            >
              <span className="codicon codicon-close" aria-hidden="true" />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** What a sent message carried, under its text. */
export function SentChips({ attachments }: { attachments: SentAttachment[] }) {
  return (
    <ul className="chips sent" aria-label="Attached">
      {attachments.map((a, i) => (
        <li key={i} className="chip">
          <span className={`codicon codicon-${ICON[a.kind]}`} aria-hidden="true" />
          {a.kind === "file" && a.path ? (
            <button
              type="button"
              className="chip-label link-button"
              title="Open"
              onClick={() =>
                postToHost({ type: "openAttachment", path: a.path!, ...(a.line !== undefined ? { line: a.line } : {}) })
              }
            >
              {a.label}
            </button>
          ) : (
            <span className="chip-label">{a.label}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
