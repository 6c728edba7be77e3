import type { TeamFilesView } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";

interface Props {
  /** The custom agent the task runs as (null: Fathom's own). */
  agent: string | null;
  /** The custom agents found (undefined until the host sent them). */
  agents: TeamFilesView["agents"] | undefined;
}

/** The Agent box: Fathom's own agent, or one of the workspace's or the person's custom agents, for the whole task. */
export function AgentPicker({ agent, agents }: Props) {
  const list = agents ?? [];
  // A choice whose file is gone still shows (the host says so when the task runs).
  const names =
    agent && !list.some((a) => a.name === agent)
      ? [{ name: agent, description: "no longer defined", source: "" }, ...list]
      : list;
  // Shown once custom agents are known (the list comes when the person starts writing, or with the first task).
  if (names.length === 0) return null;
  const chosen = names.find((a) => a.name === agent);
  return (
    <label
      className="agent-picker"
      title={
        chosen
          ? `${chosen.description}${chosen.source ? ` (${chosen.source})` : ""}`
          : "Fathom's own agent, with every tool your settings allow"
      }
    >
      <span className="codicon codicon-person" aria-hidden="true" />
      <span className="visually-hidden">Agent</span>
      <select
        aria-label="Agent"
        value={agent ?? ""}
        onChange={(event) =>
          postToHost({ type: "setAgent", agent: event.target.value === "" ? null : event.target.value })
        }
      >
        <option value="">Fathom</option>
        {names.map((a) => (
          <option key={a.name} value={a.name}>
            {a.name}
          </option>
        ))}
      </select>
    </label>
  );
}
