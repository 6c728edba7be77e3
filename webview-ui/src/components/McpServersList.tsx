import type { McpServerView } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";
import { IconButton } from "./IconButton";
import { ItemRow } from "./ItemRow";

const STATE_TEXT: Record<McpServerView["state"], { text: string; icon: string }> = {
  starting: { text: "starting", icon: "loading codicon-modifier-spin" },
  ready: { text: "ready", icon: "pass" },
  failed: { text: "failed", icon: "error" },
  stopped: { text: "not started", icon: "circle-outline" },
  disabled: { text: "disabled", icon: "circle-slash" },
};

const size = (chars: number) => (chars >= 1000 ? `${(chars / 1000).toFixed(1)}k` : String(chars));

/** The window's MCP servers: state, tools, the size their schemas add to a request, and what to do. */
export function McpServersList({ servers }: { servers: McpServerView[] }) {
  if (servers.length === 0) return null;
  return (
    <details className="mcp-servers">
      <summary>
        <h2 className="mcp-heading" id="mcp-heading">
          MCP servers ({servers.filter((s) => s.state === "ready").length}/{servers.length} ready)
        </h2>
      </summary>
      <ul className="mcp-list" aria-labelledby="mcp-heading">
        {servers.map((s) => (
          <li
            key={s.name}
            className={`mcp-server state-${s.state}`}
            aria-label={`${s.name}: ${STATE_TEXT[s.state].text}`}
          >
            <ItemRow
              icon={STATE_TEXT[s.state].icon}
              name={s.name}
              title={s.source}
              meta={
                s.state === "ready" || s.tools > 0
                  ? `${STATE_TEXT[s.state].text} · ${s.tools} tools · ${size(s.schemaChars)} chars of schemas`
                  : STATE_TEXT[s.state].text
              }
            >
              {s.state === "disabled" ? (
                <IconButton
                  icon="play"
                  label={`Enable ${s.name}`}
                  title="Enable"
                  onClick={() => postToHost({ type: "mcpAction", action: "enable", server: s.name })}
                />
              ) : (
                <>
                  {s.state === "stopped" ? null : (
                    <IconButton
                      icon="debug-restart"
                      label={`Restart ${s.name}`}
                      title="Restart"
                      onClick={() => postToHost({ type: "mcpAction", action: "restart", server: s.name })}
                    />
                  )}
                  <IconButton
                    icon="debug-stop"
                    label={`Disable ${s.name}`}
                    title="Disable: its tools are not offered"
                    onClick={() => postToHost({ type: "mcpAction", action: "disable", server: s.name })}
                  />
                </>
              )}
              <IconButton
                icon="output"
                label={`Show the log of ${s.name}`}
                title="Show log"
                onClick={() => postToHost({ type: "mcpAction", action: "showLog", server: s.name })}
              />
            </ItemRow>
            {s.problem ? <p className="mcp-problem">{s.problem}</p> : null}
          </li>
        ))}
      </ul>
    </details>
  );
}
