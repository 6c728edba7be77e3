// The ACP SDK's own client connected to a `fathom acp` child process, for the ACP tests.
import { after } from "node:test";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import {
  client,
  ndJsonStream,
  type RequestPermissionRequest,
  type SessionNotification,
} from "@agentclientprotocol/sdk";
import {
  startScriptedModelServer,
  type ScriptedModelServer,
  type ScriptedTurn,
} from "../../support/scriptedModelServer";

const ROOT = path.resolve(__dirname, "../../..");
const MAIN = path.join(ROOT, "src/cli/main.ts");
const servers: ScriptedModelServer[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
after(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await Promise.all(servers.map((s) => s.close()));
});

export async function server(turns: ScriptedTurn[]) {
  const s = await startScriptedModelServer(turns);
  servers.push(s);
  return s;
}

export const workspace = () => mkdtempSync(path.join(tmpdir(), "fathom-acp-"));

export interface AgentOptions {
  /** Fathom's data folder (XDG_DATA_HOME): shared by two processes to see each other's tasks. */
  dataHome?: string;
  /** Run with the OS sandbox (default: --no-sandbox). */
  sandbox?: boolean;
}

export function startAgent(s: ScriptedModelServer, o: AgentOptions = {}) {
  const dataHome = o.dataHome ?? mkdtempSync(path.join(tmpdir(), "fathom-acp-data-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FATHOM_RETRY_BASE_DELAY_MS: "1",
    XDG_DATA_HOME: dataHome,
  };
  delete env.OPENAI_API_KEY;
  delete env.ANTHROPIC_API_KEY;
  const args = [
    "acp",
    "--provider",
    "openai-compatible",
    "--base-url",
    s.baseUrlOpenAI,
    "--model",
    "m",
    ...(o.sandbox ? [] : ["--no-sandbox"]),
  ];
  const child = spawn(process.execPath, ["--import", "tsx", MAIN, ...args], { cwd: ROOT, env });
  children.push(child);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

export type Decide = (request: RequestPermissionRequest) => string;

/** The SDK's client connected to a `fathom acp` child: its updates and permission requests kept. */
export function connect(s: ScriptedModelServer, decide: Decide = () => "allow_once", o: AgentOptions = {}) {
  const agentProcess = startAgent(s, o);
  const updates: SessionNotification[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const app = client({ name: "fathom-test" })
    .onRequest("session/request_permission", ({ params }) => {
      permissions.push(params);
      return { outcome: { outcome: "selected", optionId: decide(params) } };
    })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
    });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(agentProcess.child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(agentProcess.child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  const agent = connection.agent;
  const open = async (cwd: string) => {
    const init = await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await agent.request("session/new", { cwd, mcpServers: [] });
    return { init, sessionId };
  };
  return { ...agentProcess, connection, agent, updates, permissions, open };
}

export const kinds = (updates: SessionNotification[]) => updates.map((u) => u.update.sessionUpdate);

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function until(check: () => boolean, timeoutMs = 10_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error("timed out waiting");
    await sleep(20);
  }
}
