// Issue 43's bounds for `fathom acp`, as an editor meets them: the built CLI started fresh per
// sample, `initialize` sent at once, then `session/new` and a "hello" prompt against the scripted
// model server; the time to the first `agent_message_chunk` less the model's own time (the
// server's first chunk written − its request received), and the process's resident memory once
// the turn is over and it idles. Targets: ≤ 150 ms over the model's time, ≤ 60 MiB idle.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream } from "@agentclientprotocol/sdk";
import { startScriptedModelServer } from "../test/support/scriptedModelServer";
import { LoadSampler, p50p95, percentile } from "./latencyStats";

const root = path.resolve(import.meta.dirname, "..");
const SAMPLES = 7;

interface Sample {
  /** Spawn (initialize written at once) → first agent_message_chunk, less the model's own time. */
  firstChunkMs: number;
  /** Spawn → initialize answered: Node's start and loading the CLI. */
  initializedMs: number;
  /** prompt sent → first agent_message_chunk, less the model's own time (the session's own overhead). */
  promptToChunkMs: number;
  /** Resident memory once initialize is answered, before any session. */
  readyRssMiB: number;
  idleRssMiB: number;
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

async function sample(cli: string): Promise<Sample> {
  const server = await startScriptedModelServer([{ text: "Hello! How can I help?" }]);
  const dir = mkdtempSync(path.join(tmpdir(), "fathom-acp-bench-"));
  const dataHome = mkdtempSync(path.join(tmpdir(), "fathom-acp-bench-data-"));
  const args = ["acp", "--provider", "openai-compatible", "--base-url", server.baseUrlOpenAI, "--model", "m"];
  const env = { ...process.env, XDG_DATA_HOME: dataHome, OPENAI_API_KEY: "" };
  const started = performance.now();
  const child = spawn(process.execPath, [cli, ...args], { cwd: dir, env, stdio: ["pipe", "pipe", "ignore"] });
  let firstChunk: number | undefined;
  const app = client({ name: "fathom-bench" }).onNotification("session/update", ({ params }) => {
    if (params.update.sessionUpdate === "agent_message_chunk") firstChunk ??= performance.now();
  });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
    ),
  );
  try {
    await connection.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    const initializedMs = performance.now() - started;
    const readyRssMiB = rssMiB(child.pid!);
    const { sessionId } = await connection.agent.request("session/new", { cwd: dir, mcpServers: [] });
    const prompted = performance.now();
    await connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
    const request = server.requests[0];
    const modelMs = request?.firstChunkAt && request.receivedAt ? request.firstChunkAt - request.receivedAt : 0;
    if (firstChunk === undefined) throw new Error("no agent_message_chunk came");
    // Idle: the turn is over; let timers and the collector settle before reading.
    await new Promise((r) => setTimeout(r, 2_000));
    const idleRssMiB = rssMiB(child.pid!);
    return {
      firstChunkMs: firstChunk - started - modelMs,
      initializedMs,
      readyRssMiB,
      promptToChunkMs: firstChunk - prompted - modelMs,
      idleRssMiB,
    };
  } finally {
    child.stdin.end();
    await new Promise((r) => child.once("close", r));
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataHome, { recursive: true, force: true });
  }
}

export async function runAcpBench(): Promise<void> {
  console.log("\n## fathom acp: a fresh process per sample, against the scripted model server");
  const cli = path.join(root, "dist/cli.js");
  if (!existsSync(cli))
    throw new Error("dist/cli.js is missing: run `npm run build` first (the bench runs the built CLI).");
  const load = new LoadSampler();
  const samples: Sample[] = [];
  for (let i = 0; i < SAMPLES; i++) samples.push(await sample(cli));
  const { mean, max, cores } = load.stop();
  const first = samples.map((s) => s.firstChunkMs);
  const turn = samples.map((s) => s.promptToChunkMs);
  const rss = samples.map((s) => s.idleRssMiB);
  const mark = (ok: boolean) => (ok ? "✓" : "✗");
  console.log(
    `  start + initialize → first chunk of "hello", less the model's time  ${p50p95(first)}  target ≤ 150 ms ${mark(percentile(first, 50) <= 150)}`,
  );
  console.log(
    `    of which start → initialize answered (Node and the CLI loading)  ${p50p95(samples.map((s) => s.initializedMs))}`,
  );
  console.log(`  session/prompt → first chunk, less the model's time               ${p50p95(turn)}`);
  console.log(
    `  resident memory once initialized, before a session                 p50 ${percentile(
      samples.map((s) => s.readyRssMiB),
      50,
    ).toFixed(1)} MiB`,
  );
  console.log(
    `  idle resident memory after the turn                                 p50 ${percentile(rss, 50).toFixed(1)} / max ${Math.max(...rss).toFixed(1)} MiB  target ≤ 60 MiB ${mark(Math.max(...rss) <= 60)}`,
  );
  console.log(`  load while measuring: mean ${mean.toFixed(1)}, max ${max.toFixed(1)} on ${cores} cores`);
}
