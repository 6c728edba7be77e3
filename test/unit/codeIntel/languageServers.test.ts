// Which language server a headless run may start (no server is started here): by what the
// workspace holds, from its node_modules/.bin or PATH, and the rule for the workspace's own
// programs: they run only in the OS sandbox.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, realpathSync, rmSync } from "node:fs";
import path from "node:path";
import { chooseLanguageServers } from "../../../src/core/codeIntel/lsp/languageServers";
import { makeWorkspace as makeTempWorkspace, REPO_BIN } from "./lspWorkspace";

const made: string[] = [];
const makeWorkspace = (files: Record<string, string>) => {
  const root = makeTempWorkspace(files);
  made.push(root);
  return root;
};
after(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

/** A workspace whose node_modules/.bin has its own typescript-language-server (a stranger's program). */
function withOwnServer(): string {
  const root = makeWorkspace({
    "package.json": "{}",
    "node_modules/.bin/typescript-language-server": "#!/bin/sh\necho pwned > /tmp/never\n",
    "node_modules/typescript/lib/tsserver.js": "",
  });
  chmodSync(path.join(root, "node_modules/.bin/typescript-language-server"), 0o755);
  return root;
}

test("in the sandbox the workspace's own server is preferred (the version it pins)", () => {
  const root = withOwnServer();
  const { servers, missing } = chooseLanguageServers(root, { sandboxed: true, pathVar: REPO_BIN });
  assert.deepEqual(missing, []);
  assert.equal(servers.length, 1);
  assert.equal(servers[0]!.command, path.join(root, "node_modules/.bin/typescript-language-server"));
  assert.equal(servers[0]!.fromWorkspace, true);
});

test("without the sandbox: a server from PATH, with the TypeScript beside it, never the workspace's", () => {
  const root = withOwnServer();
  const { servers } = chooseLanguageServers(root, { sandboxed: false, pathVar: REPO_BIN });
  assert.equal(servers[0]!.command, path.join(REPO_BIN, "typescript-language-server"));
  assert.equal(servers[0]!.fromWorkspace, false);
  const tsserver = (servers[0]!.initializationOptions as { tsserver: { path: string } }).tsserver.path;
  assert.equal(tsserver, realpathSync(path.join(REPO_BIN, "../typescript/lib/tsserver.js")));
});

test("without the sandbox, a PATH entry inside the workspace is the workspace's program too", () => {
  const root = withOwnServer();
  const { servers, missing } = chooseLanguageServers(root, {
    sandboxed: false,
    pathVar: path.join(root, "node_modules/.bin"),
  });
  assert.deepEqual(servers, []);
  assert.match(missing[0]!, /the workspace's own program .* runs only in the OS sandbox/);
});

test("none installed: no server, and what to install", () => {
  const root = makeWorkspace({ "tsconfig.json": "{}", "pkg/tool/run.py": "print(1)\n" });
  const { servers, missing } = chooseLanguageServers(root, { sandboxed: true, pathVar: "" });
  assert.deepEqual(servers, []);
  assert.equal(missing.length, 2);
  assert.match(
    missing[0]!,
    /No TypeScript\/JavaScript language server is installed.*npm install -g typescript-language-server/,
  );
  assert.match(missing[1]!, /No Python language server is installed.*pyright/);
});

test("chosen by what the workspace holds: Python files two folders down; nothing for a folder of notes", () => {
  const py = makeWorkspace({ "pkg/tool/run.py": "print(1)\n" });
  assert.deepEqual(
    chooseLanguageServers(py, { sandboxed: true, pathVar: REPO_BIN }).servers.map((s) => s.name),
    ["pyright-langserver"],
  );
  const notes = makeWorkspace({ "notes.md": "# hi\n" });
  assert.deepEqual(chooseLanguageServers(notes, { sandboxed: true, pathVar: REPO_BIN }), { servers: [], missing: [] });
});

test("a server that cannot start: a tool error with its last words, tried twice, then not again", async () => {
  const { lspCodeIntelligence } = await import("../../../src/core/codeIntel/lsp/lspCodeIntelligence");
  const { FilesystemBackend } = await import("../../../src/core/backends/filesystem");
  const root = makeWorkspace({ "tsconfig.json": "{}", "a.ts": "export const a = 1;\n" });
  const [spec] = chooseLanguageServers(root, { sandboxed: true, pathVar: REPO_BIN }).servers;
  const intel = lspCodeIntelligence({
    root,
    // What typescript-language-server does without a TypeScript: says so and exits.
    servers: [
      { ...spec!, command: "/bin/sh", args: ["-c", "echo Could not find a valid TypeScript installation >&2; exit 1"] },
    ],
    backend: new FilesystemBackend({ rootDir: root }),
  });
  const first = await intel.documentSymbols("/a.ts");
  assert.ok("error" in first);
  assert.match(
    first.error,
    /typescript-language-server did not start: .*Could not find a valid TypeScript installation/,
  );
  await intel.documentSymbols("/a.ts");
  const third = await intel.documentSymbols("/a.ts");
  assert.ok("error" in third);
  assert.match(third.error, /tried twice; not tried again in this task\)\. Use grep and read_file instead/);
  assert.deepEqual(intel.processes(), []);
  await intel.stop();
});
