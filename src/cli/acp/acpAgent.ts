import { statSync } from "node:fs";
import * as path from "node:path";
import { PROTOCOL_VERSION, RequestError, agent, type AgentApp } from "@agentclientprotocol/sdk";
import { listTasks, loadTask, workspaceDataDir, type CliTask } from "../cliTasks";
import { acpHistory } from "./acpHistory";
import { AcpSession, type AcpSettings } from "./acpSession";

/** The agent's name and version as `initialize` gives them. */
export const AGENT_INFO = { name: "fathom", title: "Fathom", version: "0.1.0" };

/**
 * Fathom as an ACP agent: `initialize`, `session/new` (a session per client folder),
 * `session/load` and `session/list` (Fathom's saved tasks of a folder), `session/prompt` (one
 * headless run per turn), `session/cancel`. The SDK parses every request
 * against ACP's schema and answers malformed ones, unknown methods and thrown errors as
 * JSON-RPC errors. `sessions` is every session this connection opened (to stop them on close).
 */
export function fathomAcpAgent(settings: AcpSettings, sessions: Map<string, AcpSession>): AgentApp {
  return agent({ name: "fathom" })
    .onRequest("initialize", () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentInfo: AGENT_INFO,
      agentCapabilities: {
        loadSession: true,
        sessionCapabilities: { list: {} },
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: false, sse: false },
      },
      // Keys and providers come from the environment and flags, as for `fathom run`.
      authMethods: [],
    }))
    .onRequest("authenticate", () => ({}))
    .onRequest("session/new", ({ params, client }) => {
      const session = new AcpSession(folderOf(params.cwd), client, settings, { mcpServers: params.mcpServers });
      sessions.set(session.id, session);
      return { sessionId: session.id };
    })
    .onRequest("session/load", async ({ params, client }) => {
      const root = folderOf(params.cwd);
      const open = sessions.get(params.sessionId);
      if (open?.busy)
        throw RequestError.invalidRequest(
          { sessionId: params.sessionId },
          "This session is working on a prompt: wait for it, or send session/cancel first.",
        );
      const session =
        open ??
        new AcpSession(root, client, settings, {
          saved: savedTask(root, params.sessionId),
          mcpServers: params.mcpServers,
        });
      sessions.set(session.id, session);
      // The conversation replays as updates before the answer, as the protocol asks.
      for (const update of acpHistory(session.root, session.messages))
        await client.notify("session/update", { sessionId: session.id, update });
      return {};
    })
    .onRequest("session/list", ({ params }) => {
      // A folder's saved tasks; without one, those of the folders this client opened sessions in.
      const folders = params.cwd ? [folderOf(params.cwd)] : [...new Set([...sessions.values()].map((s) => s.root))];
      return {
        sessions: folders.flatMap((cwd) =>
          listTasks(workspaceDataDir(cwd)).map((task) => ({
            sessionId: task.id,
            cwd,
            title: task.title,
            updatedAt: new Date(task.updatedAt).toISOString(),
          })),
        ),
      };
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

/** The client's folder: an absolute path of an existing folder, else an error saying so. */
function folderOf(cwd: string): string {
  const root = path.resolve(cwd);
  if (!path.isAbsolute(cwd) || !isDirectory(root))
    throw RequestError.invalidParams({ cwd }, `cwd must be the absolute path of an existing folder (got "${cwd}").`);
  return root;
}

/** A task `fathom acp` or `fathom run` saved in this folder; an unknown one is "session not found". */
function savedTask(root: string, sessionId: string): CliTask {
  try {
    return loadTask(workspaceDataDir(root), sessionId);
  } catch (error) {
    const message = (error as Error).message;
    if (/^No task /.test(message) || /is not a task id/.test(message)) throw RequestError.sessionNotFound(sessionId);
    throw RequestError.internalError({ sessionId }, `${message} Start a new session instead.`);
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
