// A small open model on this machine: llama.cpp's llama-server running SmolLM2-135M-Instruct (or, by
// name, Qwen2.5-Coder-0.5B/1.5B-Instruct: LOCAL_MODELS), installed into the cache by
// install-local-model.sh. Used by `npm run local-model`, the real-model suite
// (CLI and code-server) and `npm run bench -- local-model`.
//
// The server binds 127.0.0.1 only, samples greedily (temperature 0, seed 42) and dies with the
// process that started it: it runs under a small bash guard that stops it when our end of its
// stdin closes (we exited, however we died) or when it is sent SIGTERM/SIGINT/SIGHUP.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

const here = import.meta.dirname;
export const installScript = path.join(here, "install-local-model.sh");
/** SmolLM2's turn format with tools: the GGUF's own template has none (see the file's comment). */
export const chatTemplateFile = path.join(here, "smollm2-tools.jinja");
export const LOCAL_MODEL_ID = "smollm2-135m-instruct";
/** SmolLM2-135M's trained context (8,192 tokens). */
export const DEFAULT_CONTEXT_SIZE = 8_192;
export const DEFAULT_SEED = 42;

/** The models `npm run local-model -- --model NAME` can serve (install-local-model.sh knows each). */
export interface LocalModelSpec {
  /** The name given to --model. */
  name: string;
  /** The id the server answers to (its --alias): what Fathom's --model is set to. */
  id: string;
  /** The server's context size. */
  contextSize: number;
  /** A turn format with tools to use instead of the GGUF's own (absent: the GGUF's own, with --jinja). */
  chatTemplateFile?: string;
  description: string;
}

export const LOCAL_MODELS: readonly LocalModelSpec[] = [
  {
    name: "smollm2-135m",
    id: LOCAL_MODEL_ID,
    contextSize: DEFAULT_CONTEXT_SIZE,
    chatTemplateFile,
    description: "SmolLM2-135M-Instruct, Q4_1 (98 MB): fast, but not trained to call tools",
  },
  // Qwen's own template (in the GGUF) has tools: <tool_call> JSON, which llama-server parses with
  // --jinja. Trained on 32,768 tokens; 16,384 keeps the KV cache small and is more than a task needs.
  {
    name: "qwen2.5-coder-0.5b",
    id: "qwen2.5-coder-0.5b-instruct",
    contextSize: 16_384,
    description: "Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (491 MB): trained for code and tool calls",
  },
  {
    name: "qwen2.5-coder-1.5b",
    id: "qwen2.5-coder-1.5b-instruct",
    contextSize: 16_384,
    description: "Qwen2.5-Coder-1.5B-Instruct, Q4_K_M (1.1 GB): trained for code and tool calls",
  },
];
/** The model served when none is named (to be chosen by measurement: issue 39). */
export const DEFAULT_LOCAL_MODEL = "smollm2-135m";

export function localModelSpec(name: string = DEFAULT_LOCAL_MODEL): LocalModelSpec {
  const spec = LOCAL_MODELS.find((m) => m.name === name);
  if (!spec) throw new Error(`unknown model "${name}": use ${LOCAL_MODELS.map((m) => m.name).join(", ")}`);
  return spec;
}

export interface LocalModelInstall {
  server: string;
  model: string;
  /** The model's name (LOCAL_MODELS); absent: SmolLM2-135M. */
  name?: string;
}

/** Installs (once) the server and the model; the installer's progress goes to stderr. */
export function installLocalModel(
  opts: { env?: NodeJS.ProcessEnv; quiet?: boolean; model?: string } = {},
): Promise<LocalModelInstall> {
  const spec = localModelSpec(opts.model);
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [installScript, "--model", spec.name], {
      env: opts.env ?? process.env,
      stdio: ["ignore", "pipe", opts.quiet ? "pipe" : "inherit"],
    });
    let out = "";
    let err = "";
    child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const server = /^LLAMA_SERVER=(.+)$/m.exec(out)?.[1];
      const model = /^LOCAL_MODEL=(.+)$/m.exec(out)?.[1];
      if (code === 0 && server && model) resolve({ server, model, name: spec.name });
      else
        reject(
          new Error(
            `The local model could not be installed (install-local-model.sh exited with ${code}).${err ? `\n${err.trim().split("\n").slice(-8).join("\n")}` : " Its messages above say what is missing."}`,
          ),
        );
    });
  });
}

export interface LocalModelOptions {
  install: LocalModelInstall;
  /** 0 or absent: a free port. */
  port?: number;
  contextSize?: number;
  /** Most tokens one answer may have (the server's default for requests that set none). */
  maxTokens?: number;
  threads?: number;
  /** The server's own log (default: a temp file). */
  logFile?: string;
  extraArgs?: string[];
}

export interface LocalModel {
  /** OpenAI-compatible base URL, `http://127.0.0.1:PORT/v1`. */
  url: string;
  modelId: string;
  port: number;
  logFile: string;
  /** The guard process (its group holds the server). */
  process: ChildProcess;
  /** Resolves when the server has exited (for whatever reason). */
  exited: Promise<number | null>;
  /** The last lines of the server's log. */
  logTail(lines?: number): string;
  /** Stops the server (TERM, then KILL after 10 s). */
  stop(): Promise<void>;
}

/** Why 127.0.0.1:`port` cannot be listened on (`EADDRINUSE`, …), or null when it can. */
export function portProblem(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(null)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The port from FATHOM_LOCAL_MODEL_PORT (refused with what to do when taken), else 0 (free). */
export async function portFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const asked = env.FATHOM_LOCAL_MODEL_PORT;
  if (asked === undefined || asked === "") return 0;
  const port = Number(asked);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(
      `FATHOM_LOCAL_MODEL_PORT="${asked}" is not a port number (1-65535): set it to a free port, for example FATHOM_LOCAL_MODEL_PORT=8085, or unset it to use any free port.`,
    );
  }
  const problem = await portProblem(port);
  if (problem === "EADDRINUSE")
    throw new Error(
      `127.0.0.1:${port} (FATHOM_LOCAL_MODEL_PORT) is already in use: stop what listens there, pick another port (FATHOM_LOCAL_MODEL_PORT=${port === 65535 ? 8085 : port + 1}), or unset FATHOM_LOCAL_MODEL_PORT to use any free port.`,
    );
  if (problem)
    throw new Error(
      `cannot listen on 127.0.0.1:${port} (FATHOM_LOCAL_MODEL_PORT): ${problem === "EACCES" ? "permission denied (ports below 1024 need root)" : problem}. Pick another port, or unset FATHOM_LOCAL_MODEL_PORT to use any free port.`,
    );
  return port;
}

// Runs the server in the background and waits; stops it when stdin reaches its end (the starter
// is gone) or on a signal. Background jobs of a script read /dev/null, so the watcher reads a copy
// of stdin (fd 3); `read` is a builtin, so killing the watcher leaves nothing behind.
const GUARD = `exec 3<&0
"$@" </dev/null 3<&- & child=$!
trap 'kill -TERM $child 2>/dev/null' TERM INT HUP
{ while read -r _ <&3; do :; done; kill -TERM $child 2>/dev/null; } &
watcher=$!
exec 3<&-
while kill -0 $child 2>/dev/null; do wait $child; status=$?; done
kill $watcher 2>/dev/null
exit $status`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the server's log says went wrong at start, as a sentence saying what to do. */
function startFailure(log: string, opts: LocalModelOptions, port: number): string {
  if (/couldn't bind|bind.*address already in use|Address already in use/i.test(log)) {
    return `llama-server could not listen on 127.0.0.1:${port} (in use). Pick another port with FATHOM_LOCAL_MODEL_PORT, or unset it to use any free port.`;
  }
  if (
    /failed to load model|gguf_init|error loading model|tensor data is not within the file bounds|unexpectedly reached end of file/i.test(
      log,
    )
  ) {
    return `llama-server could not load the model ${opts.install.model}: the file is damaged (truncated?). Delete ${path.dirname(opts.install.model)} and run \`npm run local-model${opts.install.name && opts.install.name !== DEFAULT_LOCAL_MODEL ? ` -- --model ${opts.install.name}` : ""}\` again: it downloads the model again.`;
  }
  return "llama-server stopped while starting; its log above says why.";
}

/**
 * Whether this CPU says it has AMX (Intel's matrix tiles). A llama-server built with -march=native
 * there multiplies through ggml's AMX buffer type, and on the project's machine (a VM whose CPU
 * lists amx_tile) that crashed at the first decode: SIGSEGV on `ldtilecfg` in
 * ggml_backend_amx_mul_mat, for every model (2026-11-29). install-local-model.sh now builds
 * without AMX on such a CPU (-mno-amx-tile -mno-amx-int8 -mno-amx-bf16) and says so with a
 * `no-amx` file; a binary built before that is started with `--no-repack` (see needsNoRepack).
 */
export function cpuHasAmx(): boolean {
  try {
    return /^flags\s*:.*\bamx_tile\b/m.test(fs.readFileSync("/proc/cpuinfo", "utf8"));
  } catch {
    return false;
  }
}

/** The marker install-local-model.sh writes into its server folder when it built without AMX. */
export const NO_AMX_MARKER = "no-amx";

/**
 * Whether `server` (SERVER_DIR/bin/llama-server) must be started with `--no-repack`: on a CPU with
 * AMX when the binary may have been built with it (no NO_AMX_MARKER in SERVER_DIR). `--no-repack`
 * keeps the weights in plain CPU buffers, which works there but generates more slowly.
 */
export function needsNoRepack(server: string, hasAmx: boolean = cpuHasAmx()): boolean {
  return hasAmx && !fs.existsSync(path.join(path.dirname(path.dirname(server)), NO_AMX_MARKER));
}

export async function startLocalModel(opts: LocalModelOptions): Promise<LocalModel> {
  const port = opts.port || (await freePort());
  const logFile =
    opts.logFile ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), "fathom-llama-")), "llama-server.log");
  // One core is left to Fathom (and VS Code): on a busy 2-core machine two threads that wait on
  // each other ran ten times slower than one (measured: 1.3 against 11.6 tokens/s).
  const threads = opts.threads ?? Math.max(1, Math.min(os.availableParallelism() - 1, 4));
  const spec = localModelSpec(opts.install.name);
  const args = [
    "-m",
    opts.install.model,
    "--alias",
    spec.id,
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--jinja",
    ...(spec.chatTemplateFile ? ["--chat-template-file", spec.chatTemplateFile] : []),
    "-c",
    String(opts.contextSize ?? spec.contextSize),
    "-np",
    "1",
    "-t",
    String(threads),
    "--temp",
    "0",
    "--seed",
    String(DEFAULT_SEED),
    ...(opts.maxTokens ? ["-n", String(opts.maxTokens)] : []),
    "--no-webui",
    ...(needsNoRepack(opts.install.server) ? ["--no-repack"] : []),
    "--log-file",
    logFile,
    ...(opts.extraArgs ?? []),
  ];
  const child = spawn("bash", ["-c", GUARD, "llama-guard", opts.install.server, ...args], {
    stdio: ["pipe", "ignore", "ignore"],
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // The server must not outlive us: the guard sees stdin end when we exit, however we die.
  child.stdin!.on("error", () => undefined);
  child.unref();
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const logTail = (lines = 20) => {
    try {
      return fs.readFileSync(logFile, "utf8").trim().split("\n").slice(-lines).join("\n");
    } catch {
      return "";
    }
  };
  const stop = async () => {
    if (exitCode !== undefined) return;
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        /* gone */
      }
    }, 10_000);
    await exited;
    clearTimeout(timer);
  };
  const url = `http://127.0.0.1:${port}/v1`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (exitCode !== undefined) {
      throw new Error(`${startFailure(logTail(200), opts, port)}\n--- ${logFile} (end) ---\n${logTail(15)}`);
    }
    const ok = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`llama-server did not answer on ${url} within 3 minutes. Its log: ${logFile}\n${logTail(15)}`);
    }
    await sleep(200);
  }
  return { url, modelId: spec.id, port, logFile, process: child, exited, logTail, stop };
}
