import type { TeamFilesView } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";

const open = (source: string) => postToHost({ type: "openTeamFile", source });

function Section({
  title,
  entries,
}: {
  title: string;
  entries: { key: string; label: string; detail: string; source: string }[];
}) {
  if (entries.length === 0) return null;
  return (
    <>
      <h3 className="team-files-kind">
        {title} ({entries.length})
      </h3>
      <ul className="team-files-list" aria-label={title}>
        {entries.map((e) => (
          <li key={e.key} className="team-file">
            <button type="button" className="link-button" title={`Open ${e.source}`} onClick={() => open(e.source)}>
              {e.label}
            </button>
            <span className="team-file-detail">{e.detail}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/**
 * What Fathom found of the files teams keep: rules (and when each applies), slash commands,
 * skills and custom agents, each opening its file, and the problems reading them.
 */
export function TeamFilesList({ teamFiles }: { teamFiles: TeamFilesView | null | undefined }) {
  if (!teamFiles) return null;
  const { rules, commands, skills, agents, problems } = teamFiles;
  const found = rules.length + commands.length + skills.length + agents.length;
  if (found + problems.length === 0) return null;
  const errors = problems.filter((p) => !p.note).length;
  return (
    <details className="team-files">
      <summary>
        <h2 className="mcp-heading" id="team-files-heading">
          Team files ({found} found{errors ? `, ${errors} not read` : ""})
        </h2>
      </summary>
      <div aria-labelledby="team-files-heading">
        <Section
          title="Rules"
          entries={rules.map((r) => ({ key: r.source, label: r.source, detail: r.when, source: r.source }))}
        />
        <Section
          title="Commands"
          entries={commands.map((c) => ({
            key: c.source,
            label: `/${c.name}`,
            detail: c.description,
            source: c.source,
          }))}
        />
        <Section
          title="Skills"
          entries={skills.map((s) => ({ key: s.source, label: s.name, detail: s.description, source: s.source }))}
        />
        <Section
          title="Agents"
          entries={agents.map((a) => ({ key: a.source, label: a.name, detail: a.description, source: a.source }))}
        />
        {problems.length ? (
          <>
            <h3 className="team-files-kind">Problems ({problems.length})</h3>
            <ul className="team-files-list" aria-label="Problems reading team files">
              {problems.map((p, i) => (
                <li key={i} className={`team-file-problem${p.note ? " note" : ""}`}>
                  <span className={`codicon codicon-${p.note ? "info" : "warning"}`} aria-hidden="true" />
                  {p.source}
                  {p.line !== undefined ? `:${p.line}` : ""}: {p.message}
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </details>
  );
}
