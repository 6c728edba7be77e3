import type { McpServerView } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";

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
            <div className="mcp-row">
              <span className={`codicon codicon-${STATE_TEXT[s.state].icon}`} aria-hidden="true" />
              <span className="mcp-name" title={s.source}>
                {s.name}
              </span>
              <span className="mcp-meta">
                {s.state === "ready" || s.tools > 0
                  ? `${STATE_TEXT[s.state].text} · ${s.tools} tools · ${size(s.schemaChars)} chars of schemas`
                  : STATE_TEXT[s.state].text}
              </span>
              {s.state === "disabled" ? (
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Enable ${s.name}`}
                  title="Enable"
                  onClick={() => postToHost({ type: "mcpAction", action: "enable", server: s.name })}
                >
                  <span className="codicon codicon-play" aria-hidden="true" />
                </button>
              ) : (
                <>
                  {s.state === "stopped" ? null : (
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={`Restart ${s.name}`}
                      title="Restart"
                      onClick={() => postToHost({ type: "mcpAction", action: "restart", server: s.name })}
                    >
                      <span className="codicon codicon-debug-restart" aria-hidden="true" />
                    </button>
                  )}
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={`Disable ${s.name}`}
                    title="Disable: its tools are not offered"
                    onClick={() => postToHost({ type: "mcpAction", action: "disable", server: s.name })}
                  >
                    <span className="codicon codicon-debug-stop" aria-hidden="true" />
                  </button>
                </>
              )}
              <button
                type="button"
                className="icon-button"
                aria-label={`Show the log of ${s.name}`}
                title="Show log"
                onClick={() => postToHost({ type: "mcpAction", action: "showLog", server: s.name })}
              >
                <span className="codicon codicon-output" aria-hidden="true" />
              </button>
            </div>
            {s.problem ? <p className="mcp-problem">{s.problem}</p> : null}
          </li>
        ))}
      </ul>
    </details>
  );
}
