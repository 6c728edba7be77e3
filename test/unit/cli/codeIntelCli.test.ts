// Issue 41: `fathom run` offers the code intelligence tools from a real language server it starts
// (typescript-language-server from PATH, in the OS sandbox where it runs): a scripted model calls
// find_references, then rename_symbol, with --yes, and the files on disk are renamed. With
// --no-code-intel the tools are not offered.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { cliEnv, runCli } from "../../support/cliProcess";
import { startScriptedModelServer, type ScriptedModelServer } from "../../support/scriptedModelServer";
import { makeWorkspace, SERVER_PATH } from "../codeIntel/lspWorkspace";

const servers: ScriptedModelServer[] = [];
const scratch = mkdtempSync(path.join(tmpdir(), "fathom-cli-lsp-"));
after(async () => {
  for (const s of servers) await s.close();
  rmSync(scratch, { recursive: true, force: true });
});

const project = () =>
  makeWorkspace({
    "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true } }),
    "src/config.ts": `export function parseConfig(text: string): Record<string, string> {\n  return Object.fromEntries(text.split("\\n").map((l) => l.split("=") as [string, string]));\n}\n`,
    "src/app.ts": `import { parseConfig } from "./config";\n\nexport const settings = parseConfig("a=1");\n`,
    "src/cli.ts": `import { parseConfig } from "./config";\n\nconsole.log(parseConfig("b=2"));\n`,
  });

function env(): NodeJS.ProcessEnv {
  return cliEnv({
    OPENAI_API_KEY: "sk-test",
    PATH: SERVER_PATH,
    HOME: scratch,
    XDG_CONFIG_HOME: path.join(scratch, "config"),
    XDG_DATA_HOME: path.join(scratch, "data"),
  });
}

/** Pids of processes working in `dir` (the language server did: its working directory is the workspace). */
function processesIn(dir: string): number[] {
  const real = realpathSync(dir);
  return readdirSync("/proc")
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return readlinkSync(`/proc/${e}/cwd`) === real;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const toolNames = (s: ScriptedModelServer, i: number): string[] =>
  (s.requests[i]?.body?.tools ?? []).map((t: { function: { name: string } }) => t.function.name);

test("find_references then rename_symbol with --yes renames the files on disk", { timeout: 120_000 }, async () => {
  const dir = project();
  const s = await startScriptedModelServer([
    { toolCalls: [{ name: "ls", arguments: { path: "/src" } }] },
    { toolCalls: [{ name: "find_references", arguments: { path: "/src/config.ts", symbol: "parseConfig" } }] },
    {
      toolCalls: [
        { name: "rename_symbol", arguments: { path: "/src/config.ts", symbol: "parseConfig", new_name: "loadConfig" } },
      ],
    },
    { text: "Renamed." },
  ]);
  servers.push(s);
  const run = await runCli(
    ["run", "--yes", "--json", "--provider", "openai", "--base-url", s.baseUrlOpenAI, "--cwd", dir, "rename it"],
    env(),
  );
  assert.equal(run.code, 0, run.stderr);
  assert.ok(!toolNames(s, 0).includes("find_references"), "not in the first request");
  assert.ok(toolNames(s, 1).includes("rename_symbol"), "offered from the second step on");
  const results = s.requests[3]!.body.messages.filter((m: { role: string }) => m.role === "tool");
  const [, references, rename] = results.map((m: { content: string }) => m.content);
  assert.match(references, /References to \/src\/config\.ts:1:17/);
  assert.match(references, /\/src\/app\.ts\n {2}1:10: import \{ parseConfig \}/);
  assert.match(references, /\/src\/cli\.ts/);
  assert.match(rename, /Renamed `parseConfig` to `loadConfig` in 3 files/);
  for (const file of ["src/config.ts", "src/app.ts", "src/cli.ts"]) {
    const text = readFileSync(path.join(dir, file), "utf8");
    assert.doesNotMatch(text, /parseConfig/, file);
    assert.match(text, /loadConfig/, file);
  }
  assert.match(run.stderr, /typescript-language-server started/);
  if (process.platform === "linux") assert.deepEqual(processesIn(dir), [], "no language server outlives the run");
  rmSync(dir, { recursive: true, force: true });
});

test("--no-code-intel: the tools are not offered", { timeout: 60_000 }, async () => {
  const dir = project();
  const s = await startScriptedModelServer([{ toolCalls: [{ name: "ls", arguments: { path: "/" } }] }, { text: "ok" }]);
  servers.push(s);
  const run = await runCli(
    ["run", "--yes", "--no-code-intel", "--provider", "openai", "--base-url", s.baseUrlOpenAI, "--cwd", dir, "look"],
    env(),
  );
  assert.equal(run.code, 0, run.stderr);
  assert.ok(!toolNames(s, 1).includes("find_references"));
  assert.ok(toolNames(s, 1).includes("ls"));
  rmSync(dir, { recursive: true, force: true });
});
