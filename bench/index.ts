// `npm run bench`: every speed and size figure the issues ask for, printed. Record a run's
// figures in docs/benchmarks.md. `npm run bench -- size fs webview editor mcp sandbox hooks checkpoints changes agent web team worktrees acp models vscode vscode-parallel local-model` runs only the named parts
// (local-model, which installs and runs a small model, only when named; `vscode --fresh` adds a fresh
// window per sample, see bench/freshWindow.ts). `npm run bench -- tasks [options]`
// runs coding agents on Exercism exercises with a local model (bench/tasks.ts: its options follow "tasks").
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const root = path.resolve(import.meta.dirname, "..");
// `tasks` takes the arguments after it as its own options.
const argv = process.argv.slice(2);
const tasksAt = argv.indexOf("tasks");
const wanted = new Set(tasksAt === -1 ? argv : argv.slice(0, tasksAt + 1));
const runs = (name: string) => wanted.size === 0 || wanted.has(name);

function benchBuildSizes(): void {
  console.log("\n## Build and package sizes (production)");
  execFileSync("npm", ["run", "--silent", "package"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const dist = path.join(root, "dist");
  for (const file of readdirSync(dist)
    .filter((f) => /\.(js|css|ttf)$/.test(f))
    .sort()) {
    const bytes = readFileSync(path.join(dist, file));
    console.log(
      `  dist/${file.padEnd(16)} ${(bytes.length / 1024).toFixed(1).padStart(8)} KB  ${(gzipSync(bytes).length / 1024).toFixed(1).padStart(7)} KB gzipped`,
    );
  }
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  const vsix = path.join(root, `fathom-${version}.vsix`);
  console.log(`  ${path.basename(vsix).padEnd(21)} ${(statSync(vsix).size / 1024).toFixed(1).padStart(8)} KB`);
}

async function main(): Promise<void> {
  if (runs("size")) benchBuildSizes();
  if (runs("fs")) {
    const { runFilesystemBench } = await import("./filesystem");
    await runFilesystemBench({});
  }
  if (runs("webview")) {
    const { runWebviewBench } = await import("./webview");
    await runWebviewBench();
  }
  if (runs("editor")) {
    const { runEditorContextBench } = await import("./editorContext");
    runEditorContextBench();
  }
  if (runs("mcp")) {
    const { runMcpBench } = await import("./mcp");
    await runMcpBench();
  }
  if (runs("sandbox")) {
    const { runSandboxBench } = await import("./sandbox");
    await runSandboxBench();
  }
  if (runs("hooks")) {
    const { runHooksBench } = await import("./hooks");
    await runHooksBench();
  }
  if (runs("checkpoints")) {
    const { runCheckpointBench } = await import("./checkpoints");
    await runCheckpointBench();
  }
  if (runs("changes")) {
    const { runChangesBench } = await import("./changes");
    await runChangesBench();
  }
  if (runs("agent")) {
    const { runAgentBench } = await import("./agent");
    await runAgentBench();
  }
  if (runs("web")) {
    const { runWebFetchBench } = await import("./webFetch");
    await runWebFetchBench();
  }
  if (runs("team")) {
    const { runTeamFilesBench } = await import("./teamFiles");
    await runTeamFilesBench();
  }
  if (runs("worktrees")) {
    const { runWorktreeBench } = await import("./worktrees");
    await runWorktreeBench();
  }
  if (runs("acp")) {
    const { runAcpBench } = await import("./acp");
    await runAcpBench();
  }
  if (runs("models")) {
    const { runModelsBench } = await import("./models");
    await runModelsBench();
  }
  if (wanted.has("local-model")) {
    const { runLocalModelBench } = await import("./localModel");
    await runLocalModelBench();
  }
  if (wanted.has("tasks")) {
    const { runTasksBench } = await import("./tasks");
    await runTasksBench(argv.slice(tasksAt + 1));
  }
  // `vscode --fresh`: a fresh profile and window per sample first (bench/freshWindow.ts), then the
  // warm figures, then both side by side; `vscode-fresh`: the fresh ones alone.
  const fresh = wanted.has("vscode-fresh") || (wanted.has("vscode") && argv.includes("--fresh"));
  if (fresh) {
    const { runFreshWindowBench, printFreshBesideWarm } = await import("./freshWindow");
    const freshFigures = await runFreshWindowBench();
    let warm;
    if (wanted.has("vscode")) {
      const { runRealHostBench } = await import("./realHost");
      warm = await runRealHostBench();
    }
    printFreshBesideWarm(freshFigures, warm);
  } else if (runs("vscode")) {
    const { runRealHostBench } = await import("./realHost");
    await runRealHostBench();
  }
  if (runs("vscode-parallel")) {
    const { runParallelHostBench } = await import("./parallelHost");
    await runParallelHostBench();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
