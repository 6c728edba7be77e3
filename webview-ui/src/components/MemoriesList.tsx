import type { MemoryView } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";
import { IconButton } from "./IconButton";
import { ItemRow } from "./ItemRow";

const kb = (bytes: number) => (bytes >= 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${bytes} B`);

/**
 * What Fathom remembers (this workspace's /memories/ and the person's /memories/user/): read
 * from the host when the list is opened; each memory can be opened (and edited) in the editor
 * or deleted, and all of them cleared. The host asks before deleting.
 */
export function MemoriesList({ memories }: { memories: MemoryView[] | null }) {
  return (
    <details
      className="mcp-servers memories"
      onToggle={(e) => e.currentTarget.open && postToHost({ type: "memoryAction", action: "list" })}
    >
      <summary>
        <h2 className="mcp-heading" id="memories-heading">
          Memories{memories ? ` (${memories.length})` : ""}
        </h2>
      </summary>
      {memories === null ? (
        <p className="mcp-meta">Reading…</p>
      ) : memories.length === 0 ? (
        <p className="mcp-meta">
          Nothing remembered yet. Start a message with # (or say “remember …”) and Fathom writes it here once you
          approve.
        </p>
      ) : (
        <>
          <ul className="mcp-list" aria-labelledby="memories-heading">
            {memories.map((m) => (
              <li key={m.path} className="memory" aria-label={`${m.path}: ${m.firstLine}`}>
                <ItemRow
                  icon="note"
                  name={m.path}
                  title={m.path}
                  meta={
                    <>
                      {m.firstLine || "(no summary line)"} · {kb(m.size)}
                      {m.overCap ? " · over the size a memory may hold: only its start is read" : ""}
                    </>
                  }
                >
                  <IconButton
                    icon="go-to-file"
                    label={`Open ${m.path}`}
                    title="Open (edit it in the editor)"
                    onClick={() => postToHost({ type: "memoryAction", action: "open", path: m.path })}
                  />
                  <IconButton
                    icon="trash"
                    label={`Delete ${m.path}`}
                    title="Delete"
                    onClick={() => postToHost({ type: "memoryAction", action: "delete", path: m.path })}
                  />
                </ItemRow>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="link-button"
            onClick={() => postToHost({ type: "memoryAction", action: "clear" })}
          >
            Clear all memories
          </button>
        </>
      )}
    </details>
  );
}
