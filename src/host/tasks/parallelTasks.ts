import * as vscode from "vscode";
import { ChildProcessExecutor } from "../../core";
import type { Log } from "../log";
import { TerminalExecutor } from "../terminal/terminalExecutor";
import { TaskTerminals } from "../terminal/taskTerminals";
import { HostRemoteBranches } from "../worktrees/hostRemoteBranches";
import { HostWorktrees } from "../worktrees/hostWorktrees";
import { TaskSlots } from "./taskSlots";

/**
 * What running several tasks in the window needs: the person's limits (a repository cannot make
 * the window run more tasks at once), the slots, the worktrees and remote branches, a terminal per task.
 */
export function parallelTasks(channel: vscode.LogOutputChannel, log: Log) {
  const userSetting = <T>(key: string, fallback: T): T =>
    vscode.workspace.getConfiguration("fathom").inspect<T>(key)?.globalValue ?? fallback;
  const maxParallel = () => Math.max(1, Math.min(10, Math.floor(userSetting("tasks.maxParallel", 3))));
  const worktreeByDefault = () => userSetting<boolean>("tasks.worktree", false) === true;
  const slots = new TaskSlots(maxParallel);
  const worktrees = new HostWorktrees({ root: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, log });
  const tell = (level: "info" | "warning", text: string) =>
    void (level === "warning"
      ? vscode.window.showWarningMessage(`Fathom: ${text}`)
      : vscode.window.showInformationMessage(`Fathom: ${text}`));
  const remoteBranches = new HostRemoteBranches({
    root: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    log,
    tell,
  });
  const terminals = new TaskTerminals(
    (terminalName) => new TerminalExecutor({ fallback: new ChildProcessExecutor(), log: channel, terminalName }),
  );
  return { maxParallel, worktreeByDefault, slots, worktrees, tell, remoteBranches, terminals };
}
