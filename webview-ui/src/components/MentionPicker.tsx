import { PickerList, pickerOptionId } from "./PickerOption";

interface Props {
  id: string;
  files: {
    path: string;
    isDir?: boolean;
    resource?: { server: string; name: string } | undefined;
    special?: "problems";
  }[];
  active: number;
  loading: boolean;
  onPick: (index: number) => void;
}

export const mentionOptionId = pickerOptionId;

/** The `@` file picker under the message box; the box keeps focus (aria-activedescendant). */
export function MentionPicker({ id, files, active, loading, onPick }: Props) {
  return (
    <PickerList
      id={id}
      className="mentions"
      label="Files, problems and MCP resources to mention"
      items={files}
      empty={loading ? "Searching files…" : "No matching files or MCP resources"}
      active={active}
      onPick={onPick}
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
