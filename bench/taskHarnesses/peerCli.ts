// Issue 39's VS Code peers, each through its own CLI, headless, against the bench's
// OpenAI-compatible server (through its recording proxy), one harness at a time like the others.
// bench/tasks/install-peer-cli.sh NAME installs each, pinned by a committed package-lock.json
// (bench/tasks/peer-cli/NAME/), into the cache. What each CLI is given and why is in its driver:
// qwenCode.ts, cline.ts, openCode.ts (OpenCode and Kilo Code's CLI, a fork of it).
//
// Every peer runs with a HOME of its own per trial (a new user: no settings, history or memories
// from an earlier trial) and with HTTP(S)_PROXY at a closed port on this machine except for
// 127.0.0.1: the model's calls (to the proxy on 127.0.0.1) go through, and anything else the CLI
// would send (telemetry, update checks, model catalogues) fails at once instead of waiting on a
// network the bench machine does not have. (Cline 3.0.65 exports OpenTelemetry to its own host
// whatever its telemetry setting says; without the closed proxy it looks that host up.)
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { clineCommand, clineOutcome } from "./cline";
import { openCodeCommand, openCodeOutcome } from "./openCode";
import { qwenCodeCommand, qwenCodeOutcome } from "./qwenCode";

export const PEER_CLIS = ["qwen-code", "cline", "opencode", "kilo"] as const;
export type PeerCli = (typeof PEER_CLIS)[number];

export const isPeerCli = (h: string): h is PeerCli => (PEER_CLIS as readonly string[]).includes(h);

/** What a peer's driver is given for one trial. */
export interface PeerContext {
  /** The installed CLI (install-peer-cli.sh's PEER_CLI). */
  bin: string;
  /** The proxy's /v1 URL and the model id the server answers to. */
  url: string;
  modelId: string;
  prompt: string;
  workspace: string;
  /** The trial's folder (kept): the CLI's HOME and logs go here. */
  folder: string;
}

export interface PeerCommand {
  cmd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Commands run before the timed run, in the same environment (Cline: `cline auth`). */
  setup?: { cmd: string; args: string[] }[];
}

/** The closed proxy: a port on this machine nothing listens on. */
const NOWHERE = "http://127.0.0.1:9";

/** The environment every peer runs in: its own HOME in the trial's folder, no network but 127.0.0.1. */
export function peerEnv(ctx: PeerContext, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const home = path.join(ctx.folder, "home");
  mkdirSync(home, { recursive: true });
  return {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    HTTP_PROXY: NOWHERE,
    HTTPS_PROXY: NOWHERE,
    ALL_PROXY: NOWHERE,
    http_proxy: NOWHERE,
    https_proxy: NOWHERE,
    all_proxy: NOWHERE,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    NO_COLOR: "1",
    CI: "1",
    ...extra,
  };
}

export function peerCommand(peer: PeerCli, ctx: PeerContext): PeerCommand {
  switch (peer) {
    case "qwen-code":
      return qwenCodeCommand(ctx);
    case "cline":
      return clineCommand(ctx);
    case "opencode":
    case "kilo":
      return openCodeCommand(peer, ctx);
  }
}

/** How the run ended, in a few words, from what the CLI printed (its stdout, kept in the trial's folder). */
export function peerOutcome(peer: PeerCli, stdout: string): string {
  switch (peer) {
    case "qwen-code":
      return qwenCodeOutcome(stdout);
    case "cline":
      return clineOutcome(stdout);
    case "opencode":
    case "kilo":
      return openCodeOutcome(stdout);
  }
}

/** Installs the peer's CLI once (bench/tasks/install-peer-cli.sh) and says where it is. */
export function installPeerCli(peer: PeerCli, tasksDir: string): string {
  const script = path.join(tasksDir, "install-peer-cli.sh");
  const out = execFileSync("bash", [script, peer], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const bin = /^PEER_CLI=(.+)$/m.exec(out)?.[1];
  if (!bin) throw new Error(`bench/tasks/install-peer-cli.sh ${peer} did not say where the CLI is.`);
  return bin;
}

/** The JSON objects among a CLI's output lines (JSON Lines; anything else skipped). */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      /* not JSON */
    }
  }
  return out;
}
