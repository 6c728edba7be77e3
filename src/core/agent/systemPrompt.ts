import * as os from "node:os";

export interface SystemPromptOptions {
  workspaceRoot: string;
  /** Defaults to this machine's. */
  platform?: string;
  shell?: string;
  /** Today's date, ISO (YYYY-MM-DD); defaults to now. */
  date?: string;
  /** Extra instructions from the embedder (appended). */
  extra?: string;
}

/**
 * The base system prompt: short and factual. Middleware adds its own sections (todos, subagents,
 * AGENTS.md rules) after it.
 */
export function baseSystemPrompt(options: SystemPromptOptions): string {
  const platform = options.platform ?? `${os.platform()} ${os.release()}`;
  const shell =
    options.shell ??
    (process.platform === "win32" ? (process.env.ComSpec ?? "cmd.exe") : process.env.SHELL || "/bin/sh");
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  const parts = [
    `You are Fathom, a coding agent working in the person's workspace. Do the task with the tools, then answer briefly with what you did.`,
    `# Environment
- Workspace root: ${options.workspaceRoot} (tool paths are virtual: "/" is this root, e.g. "/src/a.ts")
- OS: ${platform}; shell: ${shell}; date: ${date}`,
    `# Rules
- Explore before changing: ls, glob, grep, then read_file the parts you need.
- read_file a file before editing or overwriting it. Prefer edit_file for changes; write_file for new files.
- Keep changes minimal and in the project's style. Do not add files the task does not need.
- Independent read-only calls can go in one turn; they run in parallel.
- A call may be rejected by the person; respect the reason and adapt.
- Verify with execute (build, tests) when the project has them. Commands run in the workspace root.
- If a tool returns an error, read it and fix the call; do not repeat the same call.`,
  ];
  if (options.extra?.trim()) parts.push(options.extra.trim());
  return parts.join("\n\n");
}
