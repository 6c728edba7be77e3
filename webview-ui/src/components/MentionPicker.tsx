import type { MentionOption } from "./composer/useMentionPicker";
import { PickerList, type PickerState } from "./PickerOption";

/** The `@` file picker under the message box; the box keeps focus (aria-activedescendant). */
export function MentionPicker({ id, picker }: { id: string; picker: PickerState<MentionOption> }) {
  return (
    <PickerList
      id={id}
      picker={picker}
      className="mentions"
      label="Files, problems and MCP resources to mention"
      empty={picker.loading ? "Searching files…" : "No matching files or MCP resources"}
      keyOf={(file) => file.path}
    >
      {(file) =>
        file.special === "problems" ? (
          <>
            <span className="codicon codicon-warning" aria-hidden="true" />
            <span className="mention-resource">
              @problems <span className="mention-detail">the workspace's errors and warnings</span>
            </span>
          </>
        ) : file.resource ? (
          <>
            <span className="codicon codicon-plug" aria-hidden="true" />
            <span className="mention-resource" title={file.path}>
              {file.resource.name} <span className="mention-detail">MCP resource of {file.resource.server}</span>
            </span>
          </>
        ) : (
          <>
            <span className={`codicon codicon-${file.isDir ? "folder" : "file"}`} aria-hidden="true" />
            {file.path}
          </>
        )
      }
    </PickerList>
  );
}
