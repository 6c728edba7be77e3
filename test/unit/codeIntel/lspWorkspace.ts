// A small temp workspace and the real language servers of Fathom's devDependencies
// (typescript-language-server, pyright), found the way a run finds them: on PATH.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FilesystemBackend } from "../../../src/core/backends/filesystem";
import { headlessCodeIntelligence } from "../../../src/core/codeIntel/lsp/headlessCodeIntel";
import type { LspCodeIntelligence } from "../../../src/core/codeIntel/lsp/lspCodeIntelligence";
import { isAlive, type ProcessRef } from "../../../src/core/mcp/processTree";
import { CommandSandbox, sandboxUnavailable } from "../../../src/core/executor/sandbox";

export const REPO_BIN = path.resolve(__dirname, "../../../node_modules/.bin");
/** PATH with the devDependencies' servers. */
export const SERVER_PATH = `${REPO_BIN}${path.delimiter}${process.env.PATH ?? ""}`;

export function makeWorkspace(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "fathom-lsp-"));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** The workspace's code intelligence as a headless run makes it, in the OS sandbox where it can run. */
export function startIntel(
  root: string,
  o: { secretFiles?: string[]; requestTimeoutMs?: number; log?: string[] } = {},
): { intel: LspCodeIntelligence; sandbox: CommandSandbox | undefined } {
  const sandbox = process.platform === "linux" && !sandboxUnavailable() ? new CommandSandbox({}) : undefined;
  const made = headlessCodeIntelligence({
    root,
    backend: new FilesystemBackend({ rootDir: root }),
    sandbox,
    pathVar: SERVER_PATH,
    ...(o.secretFiles ? { secretFiles: o.secretFiles } : {}),
    ...(o.requestTimeoutMs ? { requestTimeoutMs: o.requestTimeoutMs } : {}),
    log: (line) => o.log?.push(line),
  });
  if (!made) throw new Error(`no language server found for ${root}`);
  return { intel: made.intel, sandbox };
}

/** Whether a process of `refs` is still running (the same process: pid and start time). */
export function alive(refs: readonly ProcessRef[]): number[] {
  return refs.filter(isAlive).map((r) => r.pid);
}
