import * as vscode from "vscode";
import {
  describeHook,
  hookSetKey,
  loadHooks,
  userHookFiles,
  workspaceHookFiles,
  type HookDefinition,
} from "../../core";
import type { Log } from "../log";

const APPROVED_KEY = "fathom.hooks.approvedSets";

/**
 * The window's side of hooks: read at each task's start (never at activation). The person's own
 * files run as written; the workspace's hooks are a stranger's programs: never in Restricted
 * Mode, never where the OS sandbox cannot hold them, and only once the person approved exactly
 * this set (a hash of every hook), asked again whenever it changes.
 */
export class HostHooks {
  private readonly declined = new Set<string>();
  private readonly warned = new Set<string>();

  constructor(private readonly o: { context: vscode.ExtensionContext; log: Log }) {}

  async forTask(root: string, o: { trusted: boolean; sandboxed: boolean }): Promise<HookDefinition[]> {
    const user = loadHooks(userHookFiles().map((file) => ({ file, origin: "user" as const })));
    const workspace = o.trusted
      ? loadHooks(workspaceHookFiles(root).map((file) => ({ file, origin: "workspace" as const })))
      : { hooks: [], problems: [] };
    for (const p of [...user.problems, ...workspace.problems]) this.warnOnce(`Hooks: ${p.message}`);
    if (workspace.hooks.length === 0) return user.hooks;
    if (!o.sandboxed) {
      this.warnOnce(
        `Hooks: the ${workspace.hooks.length} hooks this workspace defines were not run: a workspace's hooks run only in the OS sandbox, which is off or cannot run here.`,
      );
      return user.hooks;
    }
    return (await this.approved(workspace.hooks, root)) ? [...user.hooks, ...workspace.hooks] : user.hooks;
  }

  private async approved(hooks: readonly HookDefinition[], root: string): Promise<boolean> {
    const key = `${root}#${hookSetKey(hooks)}`;
    const approved = this.o.context.globalState.get<string[]>(APPROVED_KEY, []);
    if (approved.includes(key)) return true;
    if (this.declined.has(key)) return false;
    const run = "Run Hooks";
    const answer = await vscode.window.showWarningMessage(
      `This workspace defines ${hooks.length === 1 ? "a hook" : `${hooks.length} hooks`}: programs that would run at fixed points of every task. Run them?`,
      {
        modal: true,
        detail: `${hooks.map((h) => describeHook(h, root)).join("\n")}\n\nWritten by whoever wrote the repository. They run in the OS sandbox and may block a call or add context, never approve one. You are asked again if they change.`,
      },
      run,
    );
    if (answer !== run) {
      this.declined.add(key);
      this.o.log.info(`Hooks: the person did not run the workspace's ${hooks.length} hooks`);
      return false;
    }
    await this.o.context.globalState.update(APPROVED_KEY, [...approved.slice(-50), key]);
    return true;
  }

  private warnOnce(message: string): void {
    this.o.log.warn(message);
    if (this.warned.has(message)) return;
    this.warned.add(message);
    void vscode.window.showWarningMessage(`Fathom: ${message}`);
  }
}
