// `npm run local-model [-- --model smollm2-135m|qwen2.5-coder-0.5b|qwen2.5-coder-1.5b]`: installs
// (once, into FATHOM_CACHE) llama.cpp's llama-server and the model (default SmolLM2-135M-Instruct),
// serves the model on 127.0.0.1 (FATHOM_LOCAL_MODEL_PORT, or a free port), prints
//   FATHOM_LOCAL_MODEL_URL=http://127.0.0.1:PORT/v1
//   FATHOM_LOCAL_MODEL_ID=smollm2-135m-instruct   (qwen2.5-coder-1.5b-instruct, …)
// on lines of their own as soon as it answers, and runs until Ctrl+C, a SIGTERM or SIGHUP, or
// until the process that started it is gone (its parent changes, or the pipe on stdin closes).
import * as fs from "node:fs";
import {
  DEFAULT_LOCAL_MODEL,
  LOCAL_MODELS,
  installLocalModel,
  portFromEnv,
  startLocalModel,
  type LocalModel,
} from "./localModel";

function say(line: string): void {
  process.stderr.write(`[local-model] ${line}\n`);
}

const usage = `usage: npm run local-model [-- --model NAME]; NAME is one of:\n${LOCAL_MODELS.map((m) => `  ${m.name.padEnd(20)} ${m.description}${m.name === DEFAULT_LOCAL_MODEL ? " (the default)" : ""}`).join("\n")}`;

/** The model named by --model NAME / --model=NAME (default DEFAULT_LOCAL_MODEL), or an error. */
function modelFromArgs(args: string[]): string | Error {
  let name = DEFAULT_LOCAL_MODEL;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--model") {
      const next = args[++i];
      if (!next) return new Error(`--model needs a name.\n${usage}`);
      name = next;
    } else if (arg.startsWith("--model=")) name = arg.slice("--model=".length);
    else if (arg === "--help" || arg === "-h") return new Error(usage);
    else return new Error(`unknown argument "${arg}".\n${usage}`);
  }
  if (!LOCAL_MODELS.some((m) => m.name === name)) return new Error(`unknown model "${name}".\n${usage}`);
  return name;
}

async function main(): Promise<number> {
  const model = modelFromArgs(process.argv.slice(2));
  if (model instanceof Error) {
    say(model.message);
    return 2;
  }
  let port: number;
  try {
    port = await portFromEnv();
  } catch (error) {
    say((error as Error).message);
    return 2;
  }
  const started = Date.now();
  const install = await installLocalModel({ model });
  say(`starting llama-server with ${install.model}`);
  let server: LocalModel;
  try {
    server = await startLocalModel({ install, port });
  } catch (error) {
    say((error as Error).message);
    return 1;
  }
  process.stdout.write(`FATHOM_LOCAL_MODEL_URL=${server.url}\nFATHOM_LOCAL_MODEL_ID=${server.modelId}\n`);
  say(`answering after ${((Date.now() - started) / 1000).toFixed(1)} s; its log: ${server.logFile}`);
  say(
    `CLI:     node dist/cli.js run --provider openai-compatible --base-url ${server.url} --model ${server.modelId} "What does README.md say?"`,
  );
  say(
    `VS Code: set fathom.provider to openai-compatible, fathom.baseUrl to ${server.url}, fathom.model to ${server.modelId}`,
  );
  say("Ctrl+C stops it.");

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (why: string, code: number) => {
      if (stopping) return;
      stopping = true;
      say(`${why}: stopping llama-server`);
      void server.stop().then(() => resolve(code));
    };
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stop(`got ${signal}`, 0));
    // Started with a pipe or socket on stdin (by a program, not a terminal or /dev/null): its end
    // means the starter is gone.
    const stdin = fs.fstatSync(0);
    if (stdin.isFIFO() || stdin.isSocket()) {
      process.stdin.on("end", () => stop("stdin closed (the starting process is gone)", 0));
      process.stdin.resume();
    }
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid !== parent) stop("the parent process is gone", 0);
    }, 1_000);
    void server.exited.then((code) => {
      clearInterval(watch);
      if (stopping) return;
      stopping = true;
      say(`llama-server exited (${code}) on its own; the end of its log:\n${server.logTail(15)}`);
      resolve(1);
    });
  });
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say((error as Error)?.message ?? String(error));
    process.exit(1);
  },
);
