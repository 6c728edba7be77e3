import type { CommandSandbox } from "../core/executor/sandbox";
import {
  describeHook,
  loadHooks,
  userHookFiles,
  workspaceHookFiles,
  type HookDefinition,
} from "../core/hooks/hookConfig";
import { askYesNo, type PromptStreams } from "./terminalYesNo";

/**
 * The hooks of a CLI run: the person's own files always; the repository's only with
 * --allow-workspace-hooks or a yes at the terminal to exactly the hooks shown, and only where
 * they can run in the OS sandbox (or the person turned it off with --no-sandbox).
 */
export async function cliHooks(
  opts: { repoRoot: string; allowWorkspaceHooks: boolean; sandbox: CommandSandbox | null | undefined },
  prompt: PromptStreams | undefined,
  err: NodeJS.WritableStream,
): Promise<HookDefinition[]> {
  const user = loadHooks(userHookFiles().map((file) => ({ file, origin: "user" as const })));
  const workspace = loadHooks(
    workspaceHookFiles(opts.repoRoot).map((file) => ({ file, origin: "workspace" as const })),
  );
  for (const p of [...user.problems, ...workspace.problems]) err.write(`fathom: hooks: ${p.message}\n`);
  const theirs = workspace.hooks;
  if (theirs.length === 0) return user.hooks;
  if (opts.sandbox === null) {
    err.write(
      `fathom: not running the repository's ${theirs.length} hooks: they run only in the OS sandbox, which cannot run here (or pass --no-sandbox to run them with your full rights).\n`,
    );
    return user.hooks;
  }
  let allowed = opts.allowWorkspaceHooks;
  if (!allowed && prompt) allowed = await confirmWorkspaceHooks(theirs, opts.repoRoot, prompt);
  if (!allowed) {
    err.write(
      `fathom: not running the ${theirs.length} hooks this repository defines (${[...new Set(theirs.map((h) => h.source))].join(", ")}). Pass --allow-workspace-hooks to run them.\n`,
    );
    return user.hooks;
  }
  return [...user.hooks, ...theirs];
}

async function confirmWorkspaceHooks(
  hooks: readonly HookDefinition[],
  root: string,
  io: PromptStreams,
): Promise<boolean> {
  io.output.write(
    `\nThis repository defines ${hooks.length === 1 ? "a hook" : `${hooks.length} hooks`}, programs written by whoever wrote it:\n${hooks.map((h) => `  ${describeHook(h, root)}`).join("\n")}\n` +
      "They would run at those points of the task, in the OS sandbox (when it is on). They may block or add context, never approve a call.\n",
  );
  return askYesNo(io, "Run them?");
}
