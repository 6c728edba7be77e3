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

export const mentionOptionId = (listId: string, index: number) => `${listId}-option-${index}`;

/** The `@` file picker under the message box; the box keeps focus (aria-activedescendant). */
export function MentionPicker({ id, files, active, loading, onPick }: Props) {
  return (
    <div className="mentions">
      {files.length === 0 ? (
        <div className="mentions-empty" role="status">
          {loading ? "Searching files…" : "No matching files or MCP resources"}
        </div>
      ) : null}
      <ul className="mentions-list" id={id} role="listbox" aria-label="Files, problems and MCP resources to mention">
        {files.map((file, index) => (
          <li
            key={file.path}
            id={mentionOptionId(id, index)}
            role="option"
            aria-selected={index === active}
            className={`mention-option${index === active ? " active" : ""}`}
            // mousedown, not click: the message box must not lose focus.
            onMouseDown={(event) => {
              event.preventDefault();
              onPick(index);
            }}
          >
            {file.special === "problems" ? (
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
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
