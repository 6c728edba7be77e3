import { statSync } from "node:fs";
import * as path from "node:path";
import { PROTOCOL_VERSION, RequestError, agent, type AgentApp } from "@agentclientprotocol/sdk";
import { AcpSession, type AcpSettings } from "./acpSession";
import { acpModes, levelForMode } from "./acpModes";

/** The agent's name and version as `initialize` gives them. */
export const AGENT_INFO = { name: "fathom", title: "Fathom", version: "0.1.0" };

/**
 * Fathom as an ACP agent: `initialize`, `session/new` (a session per client folder),
 * `session/prompt` (one headless run per turn), `session/cancel`, `session/set_mode` (the
 * permission levels: Ask, Edits auto, Autopilot where the sandbox runs). The SDK parses every request
 * against ACP's schema and answers malformed ones, unknown methods and thrown errors as
 * JSON-RPC errors. `sessions` is every session this connection opened (to stop them on close).
 */
export function fathomAcpAgent(settings: AcpSettings, sessions: Map<string, AcpSession>): AgentApp {
  let next = 0;
  return agent({ name: "fathom" })
    .onRequest("initialize", () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentInfo: AGENT_INFO,
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
      },
      // Keys and providers come from the environment and flags, as for `fathom run`.
      authMethods: [],
    }))
    .onRequest("authenticate", () => ({}))
    .onRequest("session/new", ({ params, client }) => {
      const root = path.resolve(params.cwd);
      if (!path.isAbsolute(params.cwd) || !isDirectory(root))
        throw RequestError.invalidParams(
          { cwd: params.cwd },
          `cwd must be the absolute path of an existing folder (got "${params.cwd}").`,
        );
      const id = `fathom-${process.pid}-${++next}`;
      const session = new AcpSession(id, root, client, settings);
      sessions.set(id, session);
      return { sessionId: id, modes: acpModes(session.level, settings.autopilotRefused) };
    })
    .onRequest("session/set_mode", ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw RequestError.sessionNotFound(params.sessionId);
      const level = levelForMode(params.modeId, settings.autopilotRefused);
      if (typeof level !== "string") throw RequestError.invalidParams({ modeId: params.modeId }, level.error);
      session.level = level;
      return {};
    })
    .onRequest("session/prompt", async ({ params, signal }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw RequestError.sessionNotFound(params.sessionId);
      if (session.busy)
        throw RequestError.invalidRequest(
          { sessionId: params.sessionId },
          "This session is still working on the last prompt: wait for it, or send session/cancel first.",
        );
      try {
        return { stopReason: await session.prompt(params.prompt, signal) };
      } catch (error) {
        if (error instanceof RequestError) throw error;
        throw RequestError.internalError({ sessionId: params.sessionId }, (error as Error).message);
      }
    })
    .onNotification("session/cancel", ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
